// The console's catalog calls.
export {};
