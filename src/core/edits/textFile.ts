/**
 * Text-file facts the editor must preserve: byte-order mark, dominant line ending and final newline. Binary
 * and oversized files are refused here, before any edit logic sees them, with a reason the model can act on.
 */
import { err, ok, type Result } from '../contracts/result';

export interface TextFile {
  /** Content without the BOM. */
  text: string;
  bom: boolean;
  eol: '\n' | '\r\n';
  finalNewline: boolean;
}

/** Why the text editor refuses a file. */
export type DecodeRefusal = { reason: 'binary' | 'too_large'; message: string };
export type DecodeResult = Result<TextFile, DecodeRefusal>;

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Decodes UTF-8 text; refuses NUL bytes, invalid UTF-8 and files over `maxBytes`. */
export function decodeText(bytes: Uint8Array, maxBytes: number): DecodeResult {
  if (bytes.byteLength > maxBytes) {
    return err({ reason: 'too_large', message: `file is ${bytes.byteLength} bytes; the editor's limit is ${maxBytes}` });
  }
  if (bytes.includes(0)) return err({ reason: 'binary', message: 'file looks binary (contains NUL bytes); the text editor refuses it' });
  const bom = bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
  let text: string;
  try {
    text = strictDecoder.decode(bom ? bytes.subarray(3) : bytes);
  } catch {
    return err({ reason: 'binary', message: 'file is not valid UTF-8; the text editor refuses it' });
  }
  return ok({ text, bom, eol: dominantEol(text), finalNewline: /\n$/.test(text) });
}

/** Encodes text back, restoring the BOM when the original had one. */
export function encodeText(text: string, bom: boolean): Uint8Array {
  const body = encoder.encode(text);
  if (!bom) return body;
  const out = new Uint8Array(body.length + 3);
  out.set(UTF8_BOM, 0);
  out.set(body, 3);
  return out;
}

/** CRLF when most line breaks are CRLF, else LF (a file with no line break counts as LF). */
export function dominantEol(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Rewrites every line break in `text` to `eol`. */
export function toEol(text: string, eol: '\n' | '\r\n'): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === '\n' ? lf : lf.replace(/\n/g, '\r\n');
}
