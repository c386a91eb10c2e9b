/**
 * The commits of a `git format-patch` series, in gh's `commits` shape:
 * each message's `From <sha>` line, `From:` author, `Date:` and subject.
 */

/** One commit as gh prints it in a PR's `commits`. */
export interface CommitJson {
  authoredDate: string;
  authors: Array<{ email: string; id: string; login: string; name: string }>;
  committedDate: string;
  messageBody: string;
  messageHeadline: string;
  oid: string;
}

const FROM = /^From ([0-9a-f]{40}|[0-9a-f]{64}) Mon Sep 17 00:00:00 2001$/;

/**
 * Parse the commits of a format-patch series, oldest first (the series'
 * order). A plain diff has none. `committedDate` is the author date: a
 * patch does not carry the committer's.
 * @example patchCommits(patch)[0].messageHeadline // "Fix the crash"
 */
export function patchCommits(text: string): CommitJson[] {
  const lines = text.split("\n");
  const out: CommitJson[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FROM.exec(lines[i]!);
    if (!m) continue;
    let name = "";
    let email = "";
    let date = "";
    let subject = "";
    let j = i + 1;
    // Headers up to the first blank line; folded lines (leading space) continue the one before.
    let last = "";
    for (; j < lines.length && lines[j] !== ""; j++) {
      const l = lines[j]!;
      if (/^\s/.test(l) && last === "subject") subject += " " + l.trim();
      else if (l.startsWith("From: ")) {
        const a = /^From: (.*?)\s*<([^>]*)>\s*$/.exec(l);
        name = a ? unquote(a[1]!) : l.slice(6).trim();
        email = a ? a[2]! : "";
        last = "from";
      } else if (l.startsWith("Date: ")) {
        date = toRfc3339(l.slice(6).trim());
        last = "date";
      } else if (l.startsWith("Subject: ")) {
        subject = l.slice(9).trim();
        last = "subject";
      } else last = "";
    }
    const body: string[] = [];
    for (j++; j < lines.length && lines[j] !== "---" && !FROM.test(lines[j]!); j++) body.push(lines[j]!);
    while (body.length && body[body.length - 1]!.trim() === "") body.pop();
    out.push({
      authoredDate: date,
      authors: [{ email, id: "", login: "", name }],
      committedDate: date,
      messageBody: body.join("\n"),
      messageHeadline: subject.replace(/^\[PATCH[^\]]*\]\s*/, ""),
      oid: m[1]!,
    });
    i = j - 1;
  }
  return out;
}

function unquote(s: string): string {
  return s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1).replace(/\\(.)/g, "$1") : s;
}

/** An RFC 2822 date as RFC 3339 UTC, second precision (`""` when unreadable). */
function toRfc3339(s: string): string {
  const t = Date.parse(s);
  return Number.isNaN(t) ? "" : new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
}
