import * as z from 'zod/mini';

/** The guides of the knowledge base whose download or store link an operator configures. */
export const CLIENT_APPS = ['officialAndroid', 'v2rayNG', 'clashWindows', 'shadowrocket', 'foxray'] as const;
export type ClientApp = (typeof CLIENT_APPS)[number];

/** Served as `/person/config.json` from the server's environment. */
export const RuntimeConfigSchema = z.object({
  version: z.string(),
  websiteUrl: z.string(),
  downloads: z.record(z.enum(CLIENT_APPS), z.string()),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

export const RUNTIME_CONFIG_PATH = '/person/config.json';
