/** Bytes in a gibibyte: traffic is entered and shown in GB. */
export const GIB = 1024 ** 3;
