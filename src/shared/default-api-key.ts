/** The key accepted when none is given (`--api-key`, MOCK_API_KEYS, or the engine's `apiKeys`). Documented in docs/mock.md. */
export const DEFAULT_API_KEY = 'animal-store-dev-key';
