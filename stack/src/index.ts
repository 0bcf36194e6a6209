export { agents } from './agents.ts';
export { learnableKinds, seedFolders, agentVocabulary, agentNamed, localAgentUrls, AUTHORITY_PORT, CONSOLE_PORT } from './registry.ts';
export { registerAgent } from './registered-agent.ts';
export type { AgentLine, AgentEnv, RegisteredAgent } from './registered-agent.ts';
export { parseTokens, portFrom, repoRoot, LOCAL_DEV_TOKEN } from './config.ts';
export { connectAgent } from './demo/scenario-client.ts';
export { SCANNED_PACKAGES, frameworkWords, scannedTexts, sourceFiles, withoutComments } from './vocabulary-scan.ts';
