// The console's nodes calls.
export {};
