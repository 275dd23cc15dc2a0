// The console's notice calls.
export {};
