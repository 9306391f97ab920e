// Fixed environment for every test: no colors, a fixed width.
process.env.NO_COLOR = '1';
process.env.COLUMNS = '120';
process.env.FORCE_COLOR = '0';
