/** Reported as `meta.engineVersion`; bump when any metric's numbers may change. */
export const ENGINE_VERSION = '0.1.0';
