/**
 * Text from models and workspace files, made inert before it reaches a terminal. Plan titles, diffs of
 * proposed writes and failure messages are all model-controlled; raw, an escape sequence in them could
 * move the cursor and erase or repaint the lines the user is about to approve (the approval gate is only as
 * good as what the user sees). Control characters, a lone carriage return and invisible/bidi-override
 * characters are shown as visible escapes; newlines, tabs and CRLF line ends stay as they are.
 */
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|\r(?!\n)/g;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => (c === '\u001b' ? '\\e' : c === '\r' ? '\\r' : `\\u{${c.codePointAt(0)!.toString(16).padStart(4, '0')}}`));
}
