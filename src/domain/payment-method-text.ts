// How a payment method is named to people — a card by brand and last four ("Visa …1111"),
// a bank account by type and last four ("ACH checking …6789") — on every screen, table
// and e-mail alike, and never more of the number than that.

/** A card by brand and last four digits: "Visa …1111". */
export const cardText = (c: { brand: string | null; last_four: string }): string => `${c.brand ?? 'Card'} …${c.last_four}`;

/** A bank account by type and last four digits: "ACH checking …6789". */
export const bankAccountText = (b: { account_type?: string | null; last_four: string }): string =>
  `ACH ${b.account_type ? `${b.account_type} ` : ''}…${b.last_four}`;
