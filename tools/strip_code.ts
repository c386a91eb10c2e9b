/**
 * A tokenizer-ish pass over TypeScript or JavaScript source for the style
 * tools: the code with every comment, string, template text and regular
 * expression body blanked to spaces (newlines kept, so offsets and line
 * numbers stay), plus the string literals and comments it found. Not a
 * parser: a `/` is a regular expression where an operand may start (after
 * an operator, a `(`, `,`, `=`, a keyword like `return`), and a division
 * after a name, a number, `)`, `]` or `}`.
 */

/** A '…', "…" or substitution-free `…` literal: its text between the quotes, unescaped only as written. */
export interface Literal {
  value: string;
  /** Offset of the opening quote. */
  start: number;
}

/** A `//` comment (to the end of its line) or a block comment, `start` to `end` (exclusive). */
export interface Comment {
  kind: "line" | "block";
  start: number;
  end: number;
}

export interface Stripped {
  code: string;
  literals: Literal[];
  comments: Comment[];
}

const KEYWORDS_BEFORE_OPERAND = new Set(
  "return typeof instanceof in of new delete void throw case do else yield await".split(" ")
);

const isWord = (c: string | undefined): boolean => c !== undefined && /[\w$]/.test(c);

class Scanner {
  readonly out: string[];
  readonly literals: Literal[] = [];
  readonly comments: Comment[] = [];
  /** Whether a `/` at this point starts a regular expression. */
  private operand = true;

  constructor(private readonly src: string) {
    this.out = src.split("");
  }

  private blank(from: number, to: number): void {
    for (let k = from; k < to; k++) if (this.out[k] !== "\n" && this.out[k] !== "\r") this.out[k] = " ";
  }

  /** Code from `i`; with `inSubstitution`, returns just after the `}` that closes a template's `${`. */
  code(i: number, inSubstitution: boolean): number {
    const s = this.src;
    let depth = 0;
    while (i < s.length) {
      const c = s[i]!;
      const next = s[i + 1];
      if (c === "/" && next === "/") {
        let j = s.indexOf("\n", i);
        if (j < 0) j = s.length;
        this.comments.push({ kind: "line", start: i, end: j });
        this.blank(i, j);
        i = j;
      } else if (c === "/" && next === "*") {
        let j = s.indexOf("*/", i + 2);
        j = j < 0 ? s.length : j + 2;
        this.comments.push({ kind: "block", start: i, end: j });
        this.blank(i, j);
        i = j;
      } else if (c === '"' || c === "'") {
        i = this.quoted(i, c);
        this.operand = false;
      } else if (c === "`") {
        i = this.template(i);
        this.operand = false;
      } else if (c === "/" && this.operand) {
        i = this.regex(i);
        this.operand = false;
      } else if (isWord(c)) {
        let j = i;
        while (isWord(s[j])) j++;
        const word = s.slice(i, j);
        this.operand = KEYWORDS_BEFORE_OPERAND.has(word);
        i = j;
      } else if (c === "{") {
        depth++;
        this.operand = true;
        i++;
      } else if (c === "}") {
        if (inSubstitution && depth === 0) return i + 1;
        depth--;
        this.operand = false;
        i++;
      } else {
        if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") this.operand = c !== ")" && c !== "]";
        i++;
      }
    }
    return i;
  }

  private quoted(i: number, q: string): number {
    const s = this.src;
    let j = i + 1;
    while (j < s.length && s[j] !== q && s[j] !== "\n") j += s[j] === "\\" ? 2 : 1;
    this.literals.push({ value: s.slice(i + 1, Math.min(j, s.length)), start: i });
    this.blank(i + 1, Math.min(j, s.length));
    return j + 1;
  }

  private template(i: number): number {
    const s = this.src;
    let j = i + 1;
    let plain = true;
    let from = j;
    while (j < s.length && s[j] !== "`") {
      if (s[j] === "\\") j += 2;
      else if (s[j] === "$" && s[j + 1] === "{") {
        plain = false;
        this.blank(from, j);
        this.operand = true;
        j = this.code(j + 2, true);
        from = j;
      } else j++;
    }
    this.blank(from, Math.min(j, s.length));
    if (plain) this.literals.push({ value: s.slice(i + 1, Math.min(j, s.length)), start: i });
    return j + 1;
  }

  private regex(i: number): number {
    const s = this.src;
    let j = i + 1;
    let inClass = false;
    while (j < s.length && s[j] !== "\n") {
      const c = s[j];
      if (c === "\\") j += 2;
      else {
        if (c === "[") inClass = true;
        else if (c === "]") inClass = false;
        else if (c === "/" && !inClass) break;
        j++;
      }
    }
    // No closing slash on this line: it was a division after all.
    if (j >= s.length || s[j] === "\n") return i + 1;
    this.blank(i + 1, j);
    j++;
    while (isWord(s[j])) j++;
    return j;
  }
}

/** Blank the comments, literals and regular expressions of `src` (see the module's comment). */
export function stripCode(src: string): Stripped {
  const sc = new Scanner(src);
  sc.code(0, false);
  return { code: sc.out.join(""), literals: sc.literals, comments: sc.comments };
}

/** 1-based line numbers by offset: `lineAt(offset)`. */
export function lineIndex(src: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
