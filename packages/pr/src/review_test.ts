import test from "ava";
import { PassThrough } from "node:stream";
import { parseArgv, type Ctx } from "@forge/cli";
import review, { parseReviewOptions } from "./review.js";

const ctx = {
  io: { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, cwd: "/" },
} as unknown as Ctx;
async function parse(argv: string[]) {
  const p = parseArgv(argv, review.args);
  p.ref = "1";
  return parseReviewOptions(ctx, p);
}

test("parseReviewOptions() maps --approve, -r and -c to gh's review states", async (t) => {
  t.like(await parse(["--approve"]), { ref: "1", state: "APPROVED", body: "" });
  t.like(await parse(["-a", "-b", "lgtm"]), { state: "APPROVED", body: "lgtm" });
  t.like(await parse(["-r", "-b", "tests?"]), { state: "CHANGES_REQUESTED", body: "tests?" });
  t.like(await parse(["--comment", "--body", "hm"]), { state: "COMMENTED", body: "hm" });
});

test("parseReviewOptions() needs exactly one kind of review", async (t) => {
  await t.throwsAsync(parse([]), { message: "need exactly one of --approve, --request-changes or --comment" });
  await t.throwsAsync(parse(["-a", "-r", "-b", "x"]), { message: /exactly one/ });
});

test("parseReviewOptions() needs a body to request changes or comment, as gh", async (t) => {
  await t.throwsAsync(parse(["--request-changes"]), { message: "--request-changes needs a --body" });
  await t.throwsAsync(parse(["-c", "-b", "  "]), { message: "--comment needs a --body" });
});
