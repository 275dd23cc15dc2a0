import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';

export type MailMessage = { to: string; subject: string; text: string; html?: string };

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export type MailOptions = { smtpUrl?: string | undefined; from: string; outboxDir: string };

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * Sends over SMTP when `SMTP_URL` is set. Without it each message becomes an `.eml` file in the outbox, so that
 * a local run works with no mail server; the log names the file, never its content (it holds codes).
 */
export default fp<MailOptions>(
  async (fastify, { smtpUrl, from, outboxDir }) => {
    const transport = smtpUrl
      ? nodemailer.createTransport(smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

    const mailer: Mailer = {
      async send(message) {
        const info = await transport.sendMail({ from, ...message });
        if (smtpUrl) return;
        await fs.mkdir(outboxDir, { recursive: true });
        const file = path.join(outboxDir, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`);
        await fs.writeFile(file, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
        fastify.log.info({ file }, 'mail written to the outbox');
      },
    };
    fastify.decorate('mailer', mailer);
    fastify.addHook('onClose', async () => transport.close());
  },
  { name: 'mail' },
);
