import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMessage {
  id: number;
  templateKey: string;
  recipient: string;
  subject: string | null;
  htmlBody: string | null;
  textBody: string;
  attachments?: { name: string; contentType: string; base64: string }[] | null;
}

/** Delivers one message; resolves to a delivery reference (message id or file path), rejects on failure. */
export interface Transport {
  readonly kind: string;
  send(message: OutgoingMessage, now: Date): Promise<string>;
  close(): void;
}

/** File name that sorts by delivery time, then by outbox id. */
export function timeSortableName(now: Date, message: OutgoingMessage, extension: string): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return `${stamp}-${String(message.id).padStart(8, '0')}-${message.templateKey}.${extension}`;
}

/** E-mail through SMTP (`SMTP_URL`), or as `.eml` files under `mailDir` when there is no SMTP server. */
export function createMailTransport(options: { smtpUrl?: string; from: string; mailDir: string }): Transport {
  // Every message is automatic (RFC 3834): auto-responders and out-of-office replies leave it alone.
  // The outbox id and template name help whoever reads the development `.eml` files; they are
  // internal, so they never go out over SMTP.
  const mail = (message: OutgoingMessage, internalHeaders: boolean) => ({
    from: options.from,
    to: message.recipient,
    subject: message.subject ?? '',
    text: message.textBody,
    ...(message.htmlBody ? { html: message.htmlBody } : {}),
    ...(message.attachments?.length
      ? {
          attachments: message.attachments.map((a) => ({
            filename: a.name,
            contentType: a.contentType,
            content: a.base64,
            encoding: 'base64',
          })),
        }
      : {}),
    headers: {
      'Auto-Submitted': 'auto-generated',
      ...(internalHeaders ? { 'X-Outbox-Id': String(message.id), 'X-Template': message.templateKey } : {}),
    },
  });
  if (options.smtpUrl) {
    const transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: 'smtp',
      async send(message) {
        const info = await transporter.sendMail(mail(message, false));
        return String(info.messageId);
      },
      close: () => transporter.close(),
    };
  }
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    async send(message, now) {
      const info = await builder.sendMail(mail(message, true));
      await mkdir(options.mailDir, { recursive: true });
      const path = join(options.mailDir, timeSortableName(now, message, 'eml'));
      await writeFile(path, info.message as Buffer);
      return path;
    },
    close: () => builder.close(),
  };
}

/**
 * SMS adapter chosen by `SMS_PROVIDER`. Only `file` exists: each SMS becomes a `.txt` under `smsDir`.
 * A real provider implements `Transport` and is added to this switch.
 */
export function createSmsTransport(options: { provider: 'file'; smsDir: string }): Transport {
  switch (options.provider) {
    case 'file':
      return {
        kind: 'file',
        async send(message, now) {
          await mkdir(options.smsDir, { recursive: true });
          const path = join(options.smsDir, timeSortableName(now, message, 'txt'));
          await writeFile(path, `A: ${message.recipient}\n\n${message.textBody}\n`, 'utf8');
          return path;
        },
        close: () => undefined,
      };
  }
}
