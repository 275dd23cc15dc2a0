// The console's customers calls.
export {};
