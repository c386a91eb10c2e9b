/**
 * @module
 * forge's store: finding it, its folder layout, frontmatter in and out with
 * the SEC-01 limits, atomic writes, schema v1, derived numbers, refs, and the
 * gh-shaped JSON models. Never prints, never exits, never reads argv.
 */
export {
  AmbiguousRefError,
  ConflictError,
  ForgeError,
  InvalidFileError,
  isForgeError,
  NotFoundError,
  UsageError,
} from "./errors.js";
export { formatTimestamp, isTimestamp, isUuid } from "./time.js";
export { findStore, type FindStoreOptions } from "./store/find_store.js";
export {
  archiveDir,
  cacheDir,
  ciEnvFile,
  commentsDir,
  displayPath,
  entityDir,
  entityFile,
  isInside,
  ISSUES,
  kindDir,
  labelsFile,
  milestonesFile,
  openStore,
  patchFile,
  statStore,
  storeAt,
  type KindLayout,
  type Store,
} from "./store/store.js";
export { CI_RUNS, ciStepsDir, importFile, importsDir, mergeFile, mergesDir } from "./store/store.js";
export { releaseBuildDir, releaseFile, releaseOutDir, releaseOutRoot, releasesDir, wikiDir } from "./store/store.js";
export { evidenceImportFile, evidenceImportsDir } from "./store/store.js";
export { fileStamp, folderStamp, isStill, stillFromMs, type FolderStamp } from "./store/stamp.js";
export { isFileMode, isFolderMode, raw, rawStat, type RawStat } from "./store/raw_stat.js";
export { checkStoreVersion, STORE_VERSION, storeVersion, versionFile, writeStoreVersion } from "./store/version.js";
export { mkdirInside } from "./store/mkdir_inside.js";
export { atomicWrite } from "./store/atomic_write.js";
export {
  holdLock,
  lockFile,
  pidAlive,
  setNoteSink,
  STALE_MS,
  withKindLock,
  withLock,
  withLockAsync,
  type HeldLock,
  type LockOptions,
  type StaleLock,
} from "./store/lock.js";
export { checkedText, displayOf, writeChecked, type EntityWrite } from "./entities/write.js";
export { checkSeal } from "./entities/seal.js";
export { createDirAtomic } from "./store/create_dir.js";
export { listEntityRefs, type EntityRef } from "./store/entities_dir.js";
export { lexists, readStoreBytes, readStoreFile } from "./store/read_file.js";
export {
  formatFrontmatter,
  loadEngine,
  MAX_FILE_BYTES,
  parseFrontmatter,
  parseFrontmatterFast,
  parseFrontmatterSync,
  type Frontmatter,
} from "./frontmatter/parse.js";
export { formatCanonical, parseCanonical, type FmData } from "./frontmatter/canonical.js";
export {
  CI_RUN,
  COMMENT,
  IMPORT_RECORD,
  ISSUE,
  LABELS,
  MERGE_RECORD,
  MILESTONES,
  PR,
  PR_REVIEW,
  EDIT,
  RELEASE,
  SCHEMAS,
  TASK,
  toFrontmatter,
  validate,
  type EntitySchema,
  type FieldSpec,
  type Validated,
} from "./entities/schema.js";
export {
  CI_SETTINGS,
  ciSettings,
  DEFAULT_CACHE_KEY,
  formatCiEnv,
  parseCiEnv,
  type CiEnvEntry,
  type CiSettings,
} from "./entities/ci_env.js";
export { CI_STEP_NAME, ciStepOrder, isCiStepName } from "./entities/ci_step.js";
export { isWikiPagePath, MAX_PAGE_NAME, wikiPagePath, wikiTitle } from "./entities/wiki_page.js";
export {
  checkReleaseTag,
  compareReleases,
  isAssetName,
  isReleaseTag,
  latestRelease,
  listReleaseTags,
  loadRelease,
  RELEASE_FIELDS,
  RELEASE_LIST_FIELDS,
  releaseListJson,
  releaseToJson,
  type AssetJson,
  type ReleaseJson,
  type ReleaseListJson,
} from "./entities/release.js";
export {
  loadEntity,
  loadEntityFast,
  loadFile,
  rewriteFile,
  saveFile,
  type FileChange,
  type LoadedEntity,
  type LoadedFile,
} from "./entities/load.js";
export {
  createdAtOf,
  dropOrder,
  entityOrder,
  recordCreated,
  staleRank,
  type Order,
  type OrderEntry,
  type Unranked,
} from "./entities/order.js";
export {
  openRecordCache,
  recordCacheFile,
  RecordCache,
  recordContext,
  type RecordCacheOptions,
  type RecordHit,
} from "./entities/record_cache.js";
export {
  cachedIssueFields,
  cachedIssueList,
  issueFilter,
  type RecordFilter,
  searchFilter,
  IssueStaging,
  type CachedIssueListOptions,
} from "./entities/issue_list_cache.js";
export {
  cyclePath,
  ISSUE_LINK_FIELDS,
  IssueGraph,
  linkNodeOf,
  type IssueConnectionJson,
  type IssueLinksJson,
  type LinkedIssueJson,
  type LinkNode,
} from "./entities/issue_links.js";
export { loadIssueGraph } from "./entities/issue_graph.js";
export {
  buildId,
  checkedCache,
  flushCacheWrites,
  readCacheFile,
  setCacheFlush,
  writeCacheFile,
  writeCacheLater,
} from "./store/cache_file.js";
export { idAfter, laterId } from "./entities/later_id.js";
export {
  DefFile,
  GITHUB_DEFAULT_LABELS,
  loadDefList,
  loadLabelDefs,
  loadMilestoneDefs,
  saveDefList,
  type DefList,
  type LabelDef,
  type MilestoneDef,
} from "./entities/defs.js";
export {
  addComment,
  archiveIssue,
  bodyOf,
  checkTitle,
  createIssue,
  ISSUE_FIELDS,
  issueToJson,
  loadComments,
  stateReasonOf,
  storedBody,
  updateIssue,
  type CommentJson,
  type IssueChange,
  type IssueContext,
  type IssueJson,
  type NewIssue,
} from "./entities/issue.js";
export { resolveRef, type Ranked, type Resolved } from "./refs/resolve_ref.js";
export { MAX_JSON_ARRAY_BYTES, parseJsonLines, readJsonLines, refOfRecord, type JsonLine } from "./jsonl/read_lines.js";
export { capText, LineSplitter, MAX_JSON_LINE_BYTES, type SplitLine, textLines } from "./jsonl/split_lines.js";
export { FIRST_CHUNK, nextChunk } from "./jsonl/chunk_size.js";
export { launcherCommand, type LauncherCommand } from "./launcher.js";
export {
  codeTree,
  codeTreeOfListing,
  git,
  gitBytes,
  gitMessage,
  gitTopLevel,
  headCommit,
  splitPatchSeries,
  withWorktree,
  workspaceCodeTree,
  type GitBytesResult,
  type GitResult,
  type WorktreeOptions,
} from "./git.js";
export { readBranchTip, readHead, type HeadRead } from "./git_head.js";
export { currentAuthor, editList, expandMe } from "./author.js";
export {
  appendRecord,
  archiveEntity,
  createEntity,
  loadRecords,
  PRS,
  TASKS,
  updateEntity,
} from "./entities/folder_entity.js";
export {
  ACTIVITY_RECORDS,
  activityDirs,
  isDraftPr,
  lastActivity,
  recordEdit,
  withActivity,
} from "./entities/activity.js";
export { patchStat, unquote, type FileStat, type PatchStat } from "./entities/patch_stat.js";
export {
  addPrComment,
  addReview,
  createPr,
  loadPrComments,
  loadReviews,
  MAX_PATCH_BYTES,
  MERGE_FIELDS,
  PATCH_FIELDS,
  patchSha256,
  PR_FIELDS,
  prToJson,
  REVIEW_FIELDS,
  readPatch,
  replacePatch,
  statusCheckRollup,
  type CheckJson,
  type NewPr,
  type PrContext,
  type PrJson,
  type PrParts,
  type ReviewJson,
} from "./entities/pr.js";
export {
  createTask,
  isTaskStatus,
  moveTask,
  TASK_FIELDS,
  TASK_STATUSES,
  taskToJson,
  updateTask,
  type NewTask,
  type TaskChange,
  type TaskJson,
  type TaskStatus,
} from "./entities/task.js";
export {
  inRange,
  parseDateRange,
  parseSearch,
  SEARCH_QUALIFIERS,
  searchSetsState,
  tokenize,
  type DateRange,
  type Qualifier,
  type SearchQuery,
} from "./search/query.js";
export {
  matchSearch,
  searchNeedsComments,
  searchNeedsLinks,
  searchNeedsReviews,
  sortBySearch,
  type SearchEnv,
  type SearchItem,
} from "./search/match.js";
export { sameName } from "./search/fold.js";
export { checkRepoFlag, originRepo, parseRepoName, repoWebUrl, type RepoName } from "./repo.js";
export {
  issueRecordSearchable,
  issueRecordSearchItem,
  issueSearchItem,
  prSearchItem,
  type PrSearchParts,
} from "./search/items.js";
export { patchCommits, type CommitJson } from "./entities/patch_commits.js";
export {
  latestReviews,
  mergeStateStatus,
  pendingReviewers,
  reviewDecision,
  type Mergeable,
} from "./entities/pr_review_state.js";
export { checkDefined } from "./entities/check_defs.js";
export { printable } from "./sanitize.js";
export {
  GH_LIST_CAP,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_DEPTH,
  readGhJson,
  type GhBatch,
  type GhComment,
  type GhItem,
} from "./gh_import/read.js";
export { importGh, orderedId, type GhImportLine, type GhImportResult, type GhInput } from "./gh_import/apply.js";
