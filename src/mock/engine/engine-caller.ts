/** The function the user called, which every message about its options names: createHandlers checks them as createMock does. */
export type EngineCaller = 'createMock' | 'createHandlers';
