// Kept for callers that still import the seed from here; it is a domain rule (#domain/seed).
export { newSeed } from '#domain/seed';
