import * as z from 'zod/mini';

export const SANDBOX_ACTIONS = ['approve', 'decline', 'pending'] as const;
export type SandboxAction = (typeof SANDBOX_ACTIONS)[number];

export const PaymentMethodSchema = z.object({ id: z.string(), name: z.string() });
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;
