import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Invoice, InvoiceLine, InvoiceStatus } from '../../src/domain/catalog.js';
import { invoiceAmount } from '../../src/domain/catalog.js';
import { renderInvoicePdf } from '../../src/pdf/invoice.js';
import { fontRuns } from '../../src/pdf/fonts.js';
import { pdfText } from '../helpers/pdf-text.js';

const TS = '2026-03-01T10:00:00.000Z';
const URL = 'http://127.0.0.1:4242/invoices/AAAAAAAAAAAAAAAAAAAAAA';

function line(i: number, amount: number, quantity: number, included_tax_amount = 0, name = `Widget ${i}`): InvoiceLine {
  return {
    id: `line-${i}`, product_id: `product-${i}`, name, description: `Description of item ${i}`, amount, included_tax_amount,
    unit_of_measure: 'pc', quantity, created_at: TS, updated_at: TS,
  };
}

function invoice(status: InvoiceStatus, products: InvoiceLine[], note = 'Thank you for your business'): Invoice {
  return {
    id: 'inv-1', invoice_number: 'INV-2026-000042', group_id: 'g-1', slug: 'AAAAAAAAAAAAAAAAAAAAAA', invoice_number_numeric: '42',
    year: '2026', note, external_id: '', due_date: '2026-03-31T00:00:00.000Z', send_email: false, processor_id: 'proc-1',
    card_enabled: true, ach_enabled: true,
    partner: {
      id: 'p-1', group_id: 'g-1', company: 'Acme Corp', first_name: 'Ann', last_name: 'Lee', email: 'ann@acme.test',
      line_1: '1 Main St', line_2: 'Suite 5', city: 'Austin', country: 'US', subdivision: 'TX', postal_code: '78701',
      created_at: TS, updated_at: TS,
    },
    products, amount: invoiceAmount(products), status, created_at: TS, updated_at: TS,
  };
}

const threeLines = [line(1, 1234, 3, 100), line(2, 500000, 1, 0, 'Consulting day'), line(3, 99, 10, 9, 'Sticker')];

async function render(inv: Invoice) {
  const buf = await renderInvoicePdf({ merchantName: 'Blue Bottle Supplies', invoice: inv, publicUrl: URL });
  return { buf, pdf: await pdfText(buf) };
}

describe('renderInvoicePdf', () => {
  it('renders the merchant, number, dates, partner, lines, totals, note and public URL', async () => {
    const { buf, pdf } = await render(invoice('pending', threeLines));
    assert.equal(buf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(pdf.pages.length, 1);
    const text = pdf.text;
    for (const expected of [
      'Blue Bottle Supplies',
      'Invoice number INV-2026-000042',
      'Created 2026-03-01',
      'Due date 2026-03-31',
      'Status Pending',
      'Acme Corp',
      'Ann Lee',
      '1 Main St',
      'Suite 5',
      'Austin, TX 78701',
      'ann@acme.test',
      'Item Quantity Unit price Line total',
      'Widget 1 3 $12.34 $37.02',
      'Consulting day 1 $5,000.00 $5,000.00',
      'Sticker 10 $0.99 $9.90',
      'Description of item 2',
      'Tax included $3.90',
      'Total $5,046.92',
      'Thank you for your business',
      URL,
    ]) {
      assert.ok(text.includes(expected), `missing "${expected}" in:\n${text}`);
    }
    assert.ok(!text.includes('PAST DUE') && !text.includes('ARCHIVED') && !text.split('\n').includes('PAID'));
  });

  it('sets the document title', async () => {
    const { pdf } = await render(invoice('pending', threeLines));
    assert.equal(pdf.info['Title'], 'Invoice INV-2026-000042');
    assert.equal(pdf.info['Author'], 'Blue Bottle Supplies');
  });

  for (const [status, marker] of [
    ['past_due', 'PAST DUE'],
    ['archived', 'ARCHIVED'],
    ['paid', 'PAID'],
  ] as const) {
    it(`marks a ${status} invoice ${marker}`, async () => {
      const { pdf } = await render(invoice(status, threeLines));
      assert.ok(pdf.pages[0]!.includes(`Status ${marker}`), pdf.pages[0]);
      // The banner: the marker alone on its own line.
      assert.ok(pdf.pages[0]!.split('\n').includes(marker), pdf.pages[0]);
      for (const other of ['PAST DUE', 'ARCHIVED', 'PAID'].filter((m) => m !== marker)) {
        assert.ok(!pdf.pages[0]!.split('\n').includes(other), `${other} must not be marked`);
      }
    });
  }

  it('omits the note section when there is no note', async () => {
    const { pdf } = await render(invoice('pending', threeLines, ''));
    assert.ok(!pdf.text.split('\n').includes('Note'));
  });

  it('breaks 150 lines across pages without splitting a row, repeating the header', async () => {
    const lines = Array.from({ length: 150 }, (_, i) => line(i, 1000 + i, (i % 3) + 1, 10));
    const inv = invoice('past_due', lines);
    const { pdf } = await render(inv);
    const n = pdf.pages.length;
    assert.ok(n >= 4, `expected several pages, got ${n}`);

    for (let i = 0; i < 150; i++) {
      const rowPages = pdf.pages.flatMap((p, k) => (p.split('\n').some((l) => l.startsWith(`Widget ${i} `)) ? [k] : []));
      assert.equal(rowPages.length, 1, `Widget ${i} should appear on exactly one page`);
      const page = pdf.pages[rowPages[0]!]!.split('\n');
      assert.ok(page.includes(`Description of item ${i}`), `the description of line ${i} is on its row's page`);
    }
    pdf.pages.forEach((p, k) => {
      assert.ok(p.includes(`INV-2026-000042 · Page ${k + 1} of ${n}`), `page number on page ${k + 1}`);
      if (/^Widget \d+ /m.test(p)) assert.ok(p.includes('Item Quantity Unit price Line total'), `table header on page ${k + 1}`);
    });
    assert.ok(pdf.pages.slice(1).some((p) => p.includes('INV-2026-000042 (continued)')));

    // The total comes after the last line.
    const all = pdf.pages.join('\n');
    assert.ok(all.indexOf(`Total ${formatCents(inv.amount)}`) > all.indexOf('Widget 149 '));
    assert.ok(pdf.pages[0]!.includes('PAST DUE'));
  });

  it('prints Latin, Greek, Cyrillic and CJK as written (embedded, subset fonts)', async () => {
    const world = 'Łódź 東京 Ελλάδα Москва';
    const inv = invoice('pending', [line(1, 100, 1, 0, world)], `Merci, Grüße, спасибо, ありがとう: ${world}`);
    inv.partner.company = 'Πλάκα Café 北京';
    const buf = await renderInvoicePdf({ merchantName: world, invoice: inv, publicUrl: URL });
    const pdf = await pdfText(buf);
    const lines = pdf.text.split('\n');
    assert.equal(lines[0], `${world} INVOICE`, pdf.text);
    assert.ok(lines.includes('Πλάκα Café 北京'), pdf.text);
    assert.ok(lines.some((l) => l.startsWith(`${world} 1 $1.00 $1.00`)), pdf.text);
    assert.ok(pdf.text.includes(`Merci, Grüße, спасибо, ありがとう: ${world}`), pdf.text);
    assert.equal(pdf.info.Author, world);
    assert.doesNotMatch(pdf.text, /\?/);
    // The fonts are embedded as subsets: a few kilobytes of glyphs, not the 10 MB CJK font.
    const raw = buf.toString('latin1');
    assert.match(raw, /\/FontFile2/);
    assert.doesNotMatch(raw, /\/BaseFont \/Helvetica/);
    assert.ok(buf.length < 60_000, `${buf.length} bytes`);
  });

  it('a text of one script only needs one font: a Latin invoice embeds no CJK font', async () => {
    const { buf } = await render(invoice('pending', threeLines));
    const raw = buf.toString('latin1');
    assert.match(raw, /NotoSans-Bold/);
    assert.doesNotMatch(raw, /NotoSansSC/);
  });
});

describe('fontRuns', () => {
  for (const [input, expected] of [
    ['plain ASCII', [['plain ASCII', false]]],
    ['Łódź 東京 Ελλάδα', [['Łódź ', false], ['東京 ', true], ['Ελλάδα', false]]],
    ['東京2026', [['東京', true], ['2026', false]]],
    ['「東京」, ok', [['「東京」, ', true], ['ok', false]]],
  ] as const) {
    it(JSON.stringify(input), () => assert.deepEqual(fontRuns(input).map((r) => [r.text, r.cjk]), expected));
  }
});

function formatCents(c: number): string {
  return `$${Math.floor(c / 100).toLocaleString('en-US')}.${String(c % 100).padStart(2, '0')}`;
}
