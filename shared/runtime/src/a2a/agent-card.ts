import type { AgentCard } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { Declaration } from '@learnables/protocol';
import { DeclarationSchema, LEARNABLES_METHODS, LEARNABLES_URI } from '@learnables/protocol';
import type { LearnableAgent } from '../learnable-agent.ts';

export const JSONRPC_PATH = '/a2a/jsonrpc';
export const REST_PATH = '/a2a/rest';

/**
 * The agent's card: its skill, both transports in v1.0 and (for older clients) v0.3, and the
 * learnables declaration with `required: false`, so a client that ignores it loses nothing.
 */
export function agentCardFor<Input, Result>(agent: LearnableAgent<Input, Result>, publicUrl: string): AgentCard {
  const base = publicUrl.replace(/\/+$/, '');
  const declaration: Declaration = DeclarationSchema.parse({ ...agent.declaration, methods: LEARNABLES_METHODS });
  const interfaces = [
    { url: `${base}${JSONRPC_PATH}`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    { url: `${base}${REST_PATH}`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
  ];
  return {
    name: agent.name,
    description: agent.description,
    version: agent.version,
    supportedInterfaces: duplicateInterfacesForLegacy(interfaces, ['JSONRPC', 'HTTP+JSON']),
    provider: { organization: 'learnables reference implementation', url: 'https://rsaxb.com/a2a/learnables/v1' },
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: [
        {
          uri: LEARNABLES_URI,
          description: `Learnables: this agent can be taught ${declaration.teaches}. Lessons become versioned, auditable definitions.`,
          required: false,
          params: declaration,
        },
      ],
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: [...(agent.skill.inputModes ?? ['text/plain']), 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: agent.skill.id,
        name: agent.skill.name,
        description: agent.skill.description,
        tags: ['learnables'],
        examples: [...(agent.skill.examples ?? [])],
        inputModes: [...(agent.skill.inputModes ?? [])],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  } as AgentCard;
}
