// The fonts of payctl's PDFs: Noto Sans (Latin, Greek, Cyrillic, Vietnamese …) and, for
// Chinese, Japanese and Korean ideographs and kana, Noto Sans SC — TrueType files (OFL):
// Noto Sans from @expo-google-fonts/noto-sans; Noto Sans SC's two weights shipped in
// data/fonts/ (its package installs nine, ~92 MiB: data/fonts/README.md). pdfkit embeds
// them as subsets of the glyphs a document uses, so "Łódź 東京 Ελλάδα Москва" prints (and extracts) as written and an
// invoice stays small. The 14 standard PDF fonts encode Latin-1 only.
//
// The files are read only when a PDF is rendered (this module is imported by the PDF
// renderer, itself imported lazily).
import { createRequire } from 'node:module';
import { dataFile } from '../lib/paths.js';

const require = createRequire(import.meta.url);

export const SANS = 'NotoSans';
export const SANS_BOLD = 'NotoSans-Bold';
const CJK = 'NotoSansSC';
const CJK_BOLD = 'NotoSansSC-Bold';

const FILES: Record<string, string> = {
  [SANS]: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  [SANS_BOLD]: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
};
const SHIPPED: Record<string, string> = {
  [CJK]: dataFile('fonts', 'NotoSansSC_400Regular.ttf'),
  [CJK_BOLD]: dataFile('fonts', 'NotoSansSC_700Bold.ttf'),
};

/** Make the fonts known to `doc` under the names above (a file is read when first used). */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  for (const [name, file] of Object.entries(FILES)) doc.registerFont(name, require.resolve(file));
  for (const [name, file] of Object.entries(SHIPPED)) doc.registerFont(name, file);
}

/** Code points Noto Sans lacks and Noto Sans SC has: CJK ideographs, kana, Hangul, CJK punctuation and full-width forms. */
export function isCjk(cp: number): boolean {
  return (
    (cp >= 0x2e80 && cp <= 0x9fff) || // radicals, CJK punctuation, kana, bopomofo, ideographs
    (cp >= 0xac00 && cp <= 0xd7af) || // Hangul syllables
    (cp >= 0xf900 && cp <= 0xfaff) || // compatibility ideographs
    (cp >= 0xfe30 && cp <= 0xfe4f) || // CJK compatibility forms
    (cp >= 0xff00 && cp <= 0xffef) || // half- and full-width forms
    (cp >= 0x20000 && cp <= 0x3ffff) // supplementary ideographs
  );
}

export interface Run {
  text: string;
  cjk: boolean;
}

/**
 * `text` cut where the font must change. Spaces and ASCII punctuation stay in the run
 * they follow (no run of its own for the space between "Łódź" and "東京").
 */
export function fontRuns(text: string): Run[] {
  const runs: Run[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const last = runs[runs.length - 1];
    const neutral = cp < 0x80 && !/[A-Za-z0-9]/.test(ch);
    const cjk = isCjk(cp);
    if (last && (neutral || last.cjk === cjk)) last.text += ch;
    else runs.push({ text: ch, cjk });
  }
  return runs;
}

/** The font name for a run. */
export const fontFor = (bold: boolean, cjk: boolean): string => (cjk ? (bold ? CJK_BOLD : CJK) : bold ? SANS_BOLD : SANS);

/** Control characters other than a line break print as a space. */
export const printable = (s: string): string => s.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' '); // eslint-disable-line no-control-regex

/**
 * Write `text` at (x, y) (or where the last text ended when both are undefined) in the font each
 * of its runs needs; the runs continue one another, so wrapping and alignment see one text.
 */
export function writeText(
  doc: PDFKit.PDFDocument,
  text: string,
  bold: boolean,
  x: number | undefined,
  y: number | undefined,
  options: PDFKit.Mixins.TextOptions = {},
): PDFKit.PDFDocument {
  const runs = fontRuns(printable(text));
  if (runs.length <= 1) return doc.font(fontFor(bold, runs[0]?.cjk ?? false)).text(runs[0]?.text ?? '', x, y, options);
  runs.forEach((r, i) => {
    doc.font(fontFor(bold, r.cjk));
    const opts = { ...options, continued: i < runs.length - 1 };
    if (i === 0) doc.text(r.text, x, y, opts);
    else doc.text(r.text, opts);
  });
  return doc;
}

/** The height `text` takes at `width`, measured in the font of its widest script. */
export function heightOf(doc: PDFKit.PDFDocument, text: string, bold: boolean, width: number): number {
  const cjk = fontRuns(text).some((r) => r.cjk);
  return doc.font(fontFor(bold, cjk)).heightOfString(printable(text), { width });
}
