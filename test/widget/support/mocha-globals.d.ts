// The test runner provides mocha's BDD globals in the browser; these are the ones the widget tests use.
declare function describe(title: string, body: (this: { timeout(ms: number): void }) => void): void;
declare function it(title: string, body: (this: { timeout(ms: number): void }) => unknown): void;
declare function before(body: () => unknown): void;
declare function after(body: () => unknown): void;
declare function beforeEach(body: () => unknown): void;
declare function afterEach(body: () => unknown): void;
