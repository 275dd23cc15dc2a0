// The console's tokens calls.
export {};
