// The console's orders calls.
export {};
