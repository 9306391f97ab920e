// SMTP delivery of one e-mail (nodemailer, loaded only when an e-mail is sent): the
// transport alone. What is sent and what became of it is the outbox's
// (src/services/mail/outbox.ts).
export interface SmtpMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** Send `message` through the SMTP server at `smtpUrl`; rejects with the server's or the connection's error. */
export async function sendSmtp(smtpUrl: string, message: SmtpMessage): Promise<void> {
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(smtpUrl);
  await transport.sendMail(message);
  transport.close();
}
