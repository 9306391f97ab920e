// The flags of `product create` and `product update` (the same body shape).
import { Flags } from '@oclif/core';
import { groupFlag } from './group.js';
import { fileFlag } from './file.js';
import { moneyFlags } from './money.js';
import { setsField } from './fields.js';
import { UNITS_OF_MEASURE } from '../../domain/catalog.js';

export function productFlags(unitDefault?: string) {
  return {
    group: groupFlag,
    name: Flags.string({ description: 'product name (at most 100 characters)' }),
    description: Flags.string({ description: 'description (at most 255 characters)' }),
    ...moneyFlags('amount', 'unit price, tax included'),
    ...moneyFlags('tax', 'tax included in the price', { field: 'included_tax_amount' }),
    unit: setsField(Flags.string({ description: 'unit of measure', options: [...UNITS_OF_MEASURE], ...(unitDefault ? { default: unitDefault } : {}) }), 'unit_of_measure'),
    file: fileFlag,
  };
}
