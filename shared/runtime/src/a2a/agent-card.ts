import type { AgentCard } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { Declaration } from '@learnables/protocol';
import { DeclarationSchema, LEARNABLES_METHODS, LEARNABLES_URI } from '@learnables/protocol';
import type { LearnableAgent } from '../learnable-agent.ts';

export const JSONRPC_PATH = '/a2a/jsonrpc';
export const REST_PATH = '/a2a/rest';

/** The card's name for the bearer tokens an agent accepts (`securitySchemes`, and the declaration's methods). */
export const BEARER_SCHEME = 'bearer';

/** Who runs the agent, for the card's `provider`: an organization and its web address. */
export interface AgentProvider {
  readonly organization: string;
  readonly url: string;
}

export interface AgentCardOptions {
  /** Whether every call needs a bearer token (the agent serves no anonymous caller). */
  readonly tokenRequired: boolean;
  /** Default: "learnables reference implementation" at the agent's own origin (whoever runs it provides it). */
  readonly provider?: AgentProvider;
}

/** The extension methods that write or read a caller's lessons: a token always, whatever core methods allow. */
const NEEDS_TOKEN: ReadonlySet<keyof typeof LEARNABLES_METHODS> = new Set(['teach', 'retract', 'preview', 'correct']);

/**
 * The agent's card, in the A2A v1.0 wire shape (proto JSON): its skill, both transports in v1.0
 * and (for older clients) v0.3, the learnables declaration with `required: false`, so a client
 * that ignores it loses nothing, and what a call must present. The bearer scheme is always
 * declared (teach and the other writing methods need a token on every agent, and the declaration's
 * methods say so); it is required of every call only when the agent serves no anonymous caller.
 */
export function agentCardFor<Input, Result>(
  agent: LearnableAgent<Input, Result>,
  publicUrl: string,
  options: AgentCardOptions = { tokenRequired: false },
): AgentCard {
  const base = publicUrl.replace(/\/+$/, '');
  const methods = Object.fromEntries(
    Object.entries(LEARNABLES_METHODS).map(([name, names]) => [
      name,
      NEEDS_TOKEN.has(name as keyof typeof LEARNABLES_METHODS) ? { ...names, security: [BEARER_SCHEME] } : names,
    ]),
  );
  const declaration: Declaration = DeclarationSchema.parse({ ...agent.declaration, methods });
  const interfaces = [
    { url: `${base}${JSONRPC_PATH}`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    { url: `${base}${REST_PATH}`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
  ];
  const bearerRequired = [{ schemes: { [BEARER_SCHEME]: { list: [] } } }];
  const card = {
    name: agent.name,
    description: agent.description,
    version: agent.version,
    supportedInterfaces: duplicateInterfacesForLegacy(interfaces, ['JSONRPC', 'HTTP+JSON']),
    provider: options.provider ?? { organization: 'learnables reference implementation', url: new URL(base).origin },
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: [
        {
          uri: LEARNABLES_URI,
          description: `Learnables: this agent can be taught ${declaration.teaches}. Lessons become versioned, auditable definitions; teaching needs a bearer token.`,
          required: false,
          params: declaration,
        },
      ],
    },
    securitySchemes: {
      [BEARER_SCHEME]: {
        httpAuthSecurityScheme: {
          scheme: 'Bearer',
          description: options.tokenRequired
            ? 'A bearer token this agent accepts (RFC 6750), in the Authorization header of every call; its name owns the tasks it creates.'
            : "A bearer token this agent accepts (RFC 6750), in the Authorization header. Messages may be sent without one (as anonymous, whose tasks only other anonymous callers see); the extension's teach, retract, preview and correct always need one (their security in the declaration's methods).",
        },
      },
    },
    securityRequirements: options.tokenRequired ? bearerRequired : [],
    defaultInputModes: [...new Set([...(agent.skill.inputModes ?? ['text/plain']), 'application/json'])],
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
        securityRequirements: options.tokenRequired ? bearerRequired : [],
      },
    ],
    signatures: [],
  };
  return card as unknown as AgentCard;
}
