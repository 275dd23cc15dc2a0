// The console's overview calls.
export {};
