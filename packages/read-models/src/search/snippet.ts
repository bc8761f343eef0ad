/** snippet() is asked to open a match with \u0002 and close it with \u0003; indexed text holds neither (text.ts). */
export const OPEN = '\u0002';
export const CLOSE = '\u0003';

export interface MarkedSnippet {
  snippet: string;
  /** [start, end) UTF-16 offsets into `snippet`. */
  marks: Array<[number, number]>;
}

/** Takes the markers out, keeping where they stood; adjacent matches merge into one mark. */
export const marksOf = (marked: string): MarkedSnippet => {
  let snippet = '';
  const marks: Array<[number, number]> = [];
  let start = -1;
  for (const piece of marked.split(/([\u0002\u0003])/u)) {
    if (piece === OPEN) start = snippet.length;
    else if (piece === CLOSE) {
      if (start < 0) continue;
      const last = marks[marks.length - 1];
      if (last && last[1] === start) last[1] = snippet.length;
      else if (snippet.length > start) marks.push([start, snippet.length]);
      start = -1;
    } else snippet += piece;
  }
  return { snippet, marks };
};
