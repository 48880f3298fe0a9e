export { readStandaloneConfig, ConfigError, type StandaloneConfig } from './config.js';
export { startStandalone, type StandaloneServer, type StandaloneOptions } from './standalone-server.js';
export { signOrderToken, verifyOrderToken, type OrderTokenClaims } from './order-token.js';
export { Metrics } from './metrics.js';
