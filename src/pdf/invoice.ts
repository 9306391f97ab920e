// Invoice PDF (spec 11, Download PDF). pdfkit is imported lazily so commands that never
// render a PDF do not pay for it. Text is set in embedded Noto fonts (./fonts.ts), so
// names and notes in any of Latin, Greek, Cyrillic or CJK print as written.
import type { Invoice, InvoiceLine, Partner } from '../domain/catalog.js';
import { dueDayOf, invoiceIncludedTax } from '../domain/catalog.js';
import { formatMoney } from '../domain/money.js';
import { heightOf, printable, registerFonts, SANS, SANS_BOLD, writeText } from './fonts.js';

export interface InvoicePdfData {
  /** The group's (merchant's) display name. */
  merchantName: string;
  /** The invoice as the API returns it; status is the effective one (past_due already applied). */
  invoice: Invoice;
  /** Absolute URL of the public invoice page, printed and linked. */
  publicUrl: string;
  /** Called as lines are laid out (a progress bar for long invoices). */
  progress?: (done: number, total: number, label: string) => void;
}

const MARGIN = 50;
const FOOTER = 30; // room kept free at the bottom of each page for the page number
const GREY = '#555555';
const RULE = '#cccccc';

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
}

/** Render the invoice as a PDF document. */
export async function renderInvoicePdf(data: InvoicePdfData): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const { invoice, publicUrl } = data;
  const merchantName = printable(data.merchantName);
  const lines = invoice.products;

  const doc = new PDFDocument({
    size: 'LETTER',
    // The bottom margin keeps room for the page number, also on pages pdfkit adds itself.
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER },
    bufferPages: true, // page numbers are written once the page count is known
    info: {
      Title: `Invoice ${invoice.invoice_number}`,
      Author: merchantName,
      Subject: `Invoice ${invoice.invoice_number} for ${partnerName(invoice.partner)}`,
      CreationDate: new Date(invoice.created_at),
    },
  });

  registerFonts(doc);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  // Header: merchant, invoice number, dates.
  doc.fontSize(20).fillColor('black');
  writeText(doc, merchantName, true, left, MARGIN, { width: width * 0.6 });
  const afterName = doc.y;
  doc.font(SANS_BOLD).text('INVOICE', left, MARGIN, { width, align: 'right' });
  const facts: Array<[string, string]> = [
    ['Invoice number', invoice.invoice_number],
    ['Created', invoice.created_at.slice(0, 10)],
    ['Due date', dueDayOf(invoice.due_date)],
    ['Status', statusLabel(invoice.status)],
  ];
  let y = Math.max(afterName, doc.y) + 10;
  for (const [label, value] of facts) {
    doc.font(SANS).fontSize(10).fillColor(GREY).text(label, left, y, { width: 100 });
    doc.font(SANS_BOLD).fillColor('black').text(value, left + 100, y, { width: width - 100 });
    y += 15;
  }

  // ARCHIVED / PAST DUE / PAID: a coloured banner nobody can miss.
  const banner = statusBanner(invoice.status);
  if (banner) {
    y += 6;
    doc.save().rect(left, y, width, 28).fill(banner.color).restore();
    doc.font(SANS_BOLD).fontSize(16).fillColor('white').text(banner.text, left, y + 7, { width, align: 'center' });
    y += 40;
  } else {
    y += 10;
  }

  // Bill to.
  doc.font(SANS_BOLD).fontSize(10).fillColor(GREY).text('BILL TO', left, y);
  y = doc.y + 2;
  doc.fontSize(10).fillColor('black');
  for (const line of partnerAddressLines(invoice.partner)) {
    writeText(doc, line, false, left, y, { width: width / 2 });
    y = doc.y;
  }
  y += 16;

  // Lines table; it breaks across pages and repeats its header.
  const columns: Column[] = [
    { title: 'Item', width: width - 240, align: 'left' },
    { title: 'Quantity', width: 60, align: 'right' },
    { title: 'Unit price', width: 90, align: 'right' },
    { title: 'Line total', width: 90, align: 'right' },
  ];
  const drawHeader = () => {
    let x = left;
    doc.font(SANS_BOLD).fontSize(9).fillColor(GREY);
    for (const c of columns) {
      doc.text(c.title, x, y, { width: c.width - 4, align: c.align, lineBreak: false });
      x += c.width;
    }
    y += 14;
    doc.save().moveTo(left, y - 3).lineTo(left + width, y - 3).strokeColor(RULE).lineWidth(0.8).stroke().restore();
  };
  const newPage = () => {
    doc.addPage();
    y = MARGIN;
    doc.font(SANS).fontSize(9).fillColor(GREY).text(`${invoice.invoice_number} (continued)`, left, y, { width });
    y += 18;
  };

  if (y + 40 > bottom()) newPage();
  drawHeader();
  let drawn = 0;
  for (const line of lines) {
    if (drawn++ % 50 === 0) data.progress?.(drawn - 1, lines.length, 'Rendering invoice lines');
    const h = rowHeight(doc, line, columns[0]!.width - 8);
    if (y + h > bottom()) {
      newPage();
      drawHeader();
    }
    drawRow(doc, line, columns, left, y);
    y += h;
    doc.save().moveTo(left, y - 3).lineTo(left + width, y - 3).strokeColor(RULE).lineWidth(0.4).stroke().restore();
  }
  data.progress?.(lines.length, lines.length, 'Rendering invoice lines');

  // Totals.
  if (y + 50 > bottom()) newPage();
  y += 6;
  const totalsX = left + width - 260;
  const tax = invoiceIncludedTax(lines);
  doc.font(SANS).fontSize(10).fillColor(GREY).text('Tax included', totalsX, y, { width: 160, align: 'right' });
  doc.fillColor('black').text(formatMoney(tax), totalsX + 160, y, { width: 96, align: 'right' });
  y += 16;
  doc.font(SANS_BOLD).fontSize(12).text('Total', totalsX, y, { width: 160, align: 'right' });
  doc.text(formatMoney(invoice.amount), totalsX + 160, y, { width: 96, align: 'right' });
  y += 28;

  // Note (free text; pdfkit flows it onto further pages if it is long).
  if (invoice.note) {
    if (y + 40 > bottom()) newPage();
    doc.font(SANS_BOLD).fontSize(10).fillColor(GREY).text('Note', left, y);
    doc.fillColor('black');
    writeText(doc, invoice.note, false, left, doc.y + 2, { width });
    y = doc.y + 14;
  }

  // Public page.
  if (y + 30 > bottom()) newPage();
  doc.font(SANS).fontSize(10).fillColor(GREY).text('View and pay this invoice online:', left, y, { width });
  doc.fillColor('#1a56db').text(publicUrl, left, doc.y + 2, { width, link: publicUrl, underline: true });

  // Page numbers, written below the bottom margin of every buffered page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const saved = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // else writing below it would add a page
    doc
      .font(SANS)
      .fontSize(8)
      .fillColor(GREY)
      .text(`${invoice.invoice_number} · Page ${i - range.start + 1} of ${range.count}`, left, doc.page.height - MARGIN - 8, {
        width,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = saved;
  }

  doc.end();
  return done;
}

type Doc = PDFKit.PDFDocument;

function rowHeight(doc: Doc, line: InvoiceLine, itemWidth: number): number {
  doc.fontSize(10);
  const name = heightOf(doc, line.name, true, itemWidth);
  doc.fontSize(8);
  const desc = line.description ? heightOf(doc, line.description, false, itemWidth) : 0;
  return Math.max(name + desc, 12) + 10;
}

function drawRow(doc: Doc, line: InvoiceLine, columns: Column[], left: number, y: number): void {
  const [item, qty, unit, total] = columns as [Column, Column, Column, Column];
  doc.fontSize(10).fillColor('black');
  writeText(doc, line.name, true, left, y, { width: item.width - 8 });
  if (line.description) {
    doc.fontSize(8).fillColor(GREY);
    writeText(doc, line.description, false, left, doc.y, { width: item.width - 8 });
  }
  let x = left + item.width;
  doc.font(SANS).fontSize(10).fillColor('black');
  const cells: Array<[Column, string]> = [
    [qty, String(line.quantity)],
    [unit, formatMoney(line.amount)],
    [total, formatMoney(line.amount * line.quantity)],
  ];
  for (const [c, value] of cells) {
    doc.text(value, x, y, { width: c.width - 4, align: 'right', lineBreak: false });
    x += c.width;
  }
}

function statusLabel(status: Invoice['status']): string {
  return statusBanner(status)?.text ?? 'Pending';
}

function statusBanner(status: Invoice['status']): { text: string; color: string } | undefined {
  if (status === 'past_due') return { text: 'PAST DUE', color: '#c0392b' };
  if (status === 'archived') return { text: 'ARCHIVED', color: '#6b7280' };
  if (status === 'paid') return { text: 'PAID', color: '#1e7b34' };
  return undefined;
}

function partnerName(p: Partner): string {
  const person = [p.first_name, p.last_name].filter(Boolean).join(' ');
  return p.company || person || p.email;
}

function partnerAddressLines(p: Partner): string[] {
  const person = [p.first_name, p.last_name].filter(Boolean).join(' ');
  const cityLine = [p.city, [p.subdivision, p.postal_code].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [p.company, person, p.line_1, p.line_2, cityLine, p.country, p.email].filter((s) => s && s.trim() !== '');
}
