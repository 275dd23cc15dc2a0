import { OPERATOR_ROLES, type OperatorAccount } from '@mutenet/contract';
import { CommandError, command, flag, type Noun, oneOf, type Parsed, text, UsageError } from '../command.js';
import type { AdminServices } from '../context.js';
import { isoTime, keyValues, table, yesNo } from '../output.js';

function emailArg(parsed: Parsed): string {
  const value = parsed.positionals[0] ?? '';
  if (!/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(text(value, 'EMAIL', 254))) {
    throw new UsageError(`bad EMAIL "${value}": must be an email address`);
  }
  return value.toLowerCase();
}

const operatorJson = (operator: OperatorAccount) => ({
  id: operator.id,
  email: operator.email,
  role: operator.role,
  totpEnrolled: operator.totpEnrolled,
  mustChangePassword: operator.mustChangePassword,
  disabled: operator.disabled,
  createdAt: isoTime(operator.createdAt),
});

const operatorText = (operator: OperatorAccount) =>
  keyValues([
    ['id', operator.id],
    ['email', operator.email],
    ['role', operator.role],
    ['authenticator', yesNo(operator.totpEnrolled)],
    ['must change password', yesNo(operator.mustChangePassword)],
    ['disabled', yesNo(operator.disabled)],
    ['created', isoTime(operator.createdAt)],
  ]);

/** The operator and the one-time password, printed this once: it is never stored or shown again. */
const withPassword = (headline: string, { operator, password }: { operator: OperatorAccount; password: string }) => ({
  json: { ...operatorJson(operator), oneTimePassword: password },
  text: `${headline}\n${operatorText(operator)}\n\none-time password: ${password}\n(to be changed at the first sign-in; it is not shown again)`,
});

async function operatorOf(operators: AdminServices['operators'], email: string): Promise<OperatorAccount> {
  const found = await operators.find(email);
  if (!found) throw new CommandError(`no operator with the email ${email}`);
  return found;
}

/** disable / enable: a disabled operator's sessions end at once and they cannot sign in. */
const disabling = (disabled: boolean) =>
  command({
    summary: disabled
      ? 'disables an operator: signed out everywhere and unable to sign in (the last active owner cannot be)'
      : 'lets a disabled operator sign in again',
    args: ['EMAIL'],
    example: `admin operator ${disabled ? 'disable' : 'enable'} bob@example.com`,
    parse: emailArg,
    async run(email, { operators }) {
      const operator = await operatorOf(operators, email);
      const changed = await operators.update(operator.id, { disabled });
      return {
        json: operatorJson(changed),
        text: `${changed.email} ${disabled ? 'disabled' : 'enabled'}\n${operatorText(changed)}`,
      };
    },
  });

export const operatorCommands: Noun = {
  summary: 'the operators who sign in to the console, and their roles',
  verbs: {
    add: command({
      summary: 'adds an operator and prints a one-time password, to be changed at the first sign-in',
      args: ['EMAIL'],
      flags: { role: { value: OPERATOR_ROLES.join('|'), help: 'what the operator may do', required: true } },
      example: 'admin operator add alice@example.com --role owner',
      parse: (parsed) => ({
        email: emailArg(parsed),
        role: oneOf(flag(parsed, 'role') ?? '', '--role', OPERATOR_ROLES),
      }),
      async run({ email, role }, { operators }) {
        return withPassword(`operator ${email} added`, await operators.add(email, role));
      },
    }),
    list: command({
      summary: 'every operator, oldest first',
      example: 'admin operator list',
      parse: () => null,
      async run(_input, { operators }) {
        const all = await operators.list();
        return {
          json: all.map(operatorJson),
          text: table(
            ['ID', 'EMAIL', 'ROLE', 'AUTHENTICATOR', 'DISABLED', 'CREATED'],
            all.map((operator) => [
              String(operator.id),
              operator.email,
              operator.role,
              yesNo(operator.totpEnrolled),
              yesNo(operator.disabled),
              isoTime(operator.createdAt),
            ]),
            'no operators: add the first with admin operator add EMAIL --role owner',
          ),
        };
      },
    }),
    'reset-password': command({
      summary: 'prints a new one-time password for an operator and signs them out everywhere',
      args: ['EMAIL'],
      example: 'admin operator reset-password alice@example.com',
      parse: emailArg,
      async run(email, { operators }) {
        const operator = await operatorOf(operators, email);
        return withPassword(`new one-time password for ${operator.email}`, await operators.resetPassword(operator.id));
      },
    }),
    'reset-totp': command({
      summary: 'removes an operator’s authenticator (a lost phone) and signs them out; they enrol a new one',
      args: ['EMAIL'],
      example: 'admin operator reset-totp alice@example.com',
      parse: emailArg,
      async run(email, { operators }) {
        const operator = await operatorOf(operators, email);
        const changed = await operators.resetTotp(operator.id);
        return {
          json: operatorJson(changed),
          text: `${changed.email}: authenticator removed, signed out everywhere\n${operatorText(changed)}`,
        };
      },
    }),
    disable: disabling(true),
    enable: disabling(false),
  },
};
