// A chart written to a file: the SVG as is, or rendered to PNG by @resvg/resvg-js
// (Rust's resvg compiled into a native addon that ships inside the npm package for each
// platform: no browser, nothing downloaded at install or run time). Loaded only here.
import { writeFile } from 'node:fs/promises';
import { AppError } from '../errors.js';

export async function writeChart(file: string, format: 'svg' | 'png', svg: string): Promise<void> {
  let data: string | Buffer = svg;
  if (format === 'png') {
    const { Resvg } = await import('@resvg/resvg-js');
    data = new Resvg(svg, { fitTo: { mode: 'zoom', value: 2 }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng();
  }
  await writeFile(file, data).catch((err: NodeJS.ErrnoException) => {
    throw new AppError(400, 'validation_error', `--chart ${file}: cannot write the file (${err.code ?? err.message})`);
  });
}
