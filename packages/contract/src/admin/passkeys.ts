// The console's passkeys calls.
export {};
