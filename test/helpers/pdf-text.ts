// Text extraction for PDF tests: parse a PDF with pdfjs-dist (legacy build, runs in
// Node without a worker file) and return its text per page, lines in reading order.
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfText {
  /** One string per page: lines top to bottom, each line's pieces left to right joined by a space. */
  pages: string[];
  /** All pages joined by a form feed. */
  text: string;
  /** Document information dictionary (Title, Author, …). */
  info: Record<string, unknown>;
}

interface Piece {
  str: string;
  x: number;
  y: number;
}

export async function pdfText(pdf: Uint8Array | Buffer): Promise<PdfText> {
  // Copy: pdfjs transfers (detaches) the buffer it is given.
  const data = new Uint8Array(pdf);
  const doc = await pdfjs.getDocument({ data, verbosity: 0, isEvalSupported: false, useSystemFonts: false }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const pieces: Piece[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        pieces.push({ str: item.str, x: item.transform[4] as number, y: item.transform[5] as number });
      }
      pages.push(toLines(pieces).join('\n'));
    }
    const meta = await doc.getMetadata();
    return { pages, text: pages.join('\f'), info: (meta.info ?? {}) as Record<string, unknown> };
  } finally {
    await doc.destroy();
  }
}

/** Group pieces whose baselines are within 2pt into one line (PDF y grows upwards). */
function toLines(pieces: Piece[]): string[] {
  const sorted = [...pieces].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Piece[][] = [];
  for (const p of sorted) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line[0]!.y - p.y) <= 2) line.push(p);
    else lines.push([p]);
  }
  return lines.map((l) =>
    l
      .sort((a, b) => a.x - b.x)
      .map((p) => p.str.trim())
      .join(' ')
      .replace(/\s+/g, ' '),
  );
}
