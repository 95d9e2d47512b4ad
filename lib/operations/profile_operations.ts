/**
 * Operations of the `profile` group: add, remove, list_profiles, set_default and status
 * of the command-line client's connection profiles. The profiles live on the user's machine, so these
 * operations work through a {@link ProfileService} the command line puts into the context
 * (`cli/context.ts`, implemented in `cli/profile_service.ts`); elsewhere (the MCP server) they refuse to run.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import {
  defineOperation,
  type Operation,
  type OperationAnnotations,
  type OperationContext,
} from "./types.ts";

/** Input of `profile add`. */
export interface ProfileAddInput {
  name: string;
  accountName: string;
  tenantId?: string;
  region?: string;
  batchSize?: number;
  setDefault?: boolean;
}

/** What the `profile` and `config` operations need from the command line. Results are JSON values. */
export interface ProfileService {
  add(input: ProfileAddInput): unknown;
  remove(name: string): unknown;
  list(): unknown;
  setDefault(name: string): unknown;
  status(signal?: AbortSignal): Promise<unknown>;
  configSet(key: string, value: string): unknown;
  configGet(key: string): unknown;
  configList(): unknown;
}

/** A context that carries the profile service (the command line's). */
export interface ProfileAwareContext extends OperationContext {
  profiles?: ProfileService;
}

/** The context's profile service, or a usage error where there is none. */
export function profileService(context: OperationContext): ProfileService {
  const service = (context as ProfileAwareContext).profiles;
  if (service) return service;
  throw new UsageError(
    "profile and config commands manage the connection profiles of the govcat command line and run only there.",
    "Run them in a terminal: govcat profile list_profiles.",
  );
}

/** Changes of the command line's profile file: nothing in the catalog is touched, and no MCP session has one. */
export const LOCAL_WRITE: OperationAnnotations = {
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  commandLineOnly: true,
};
const LOCAL_READ: OperationAnnotations = { ...LOCAL_WRITE, readOnly: true };

const profileName = z.string().min(1).describe("Name of the profile");

export const profileAdd = defineOperation({
  id: "profile.add",
  group: "profile",
  command: "add",
  summary: "Add a connection profile (account, tenant, region, batch size); never holds a secret",
  description: "Stores a named set of connection settings in profiles.json of the user's configuration " +
    "directory. The first profile, or one added with --set-default, becomes the default. Values are " +
    "validated like the environment variables they stand for. Secrets (the client secret) stay in the " +
    "environment. Precedence: flags > environment > profile > defaults.",
  input: z.object({
    name: profileName,
    accountName: z.string().min(1).describe("Catalog account name, without the domain suffix"),
    tenantId: z.string().optional().describe("Tenant id (GUID)"),
    region: z.string().optional().describe("Sovereign cloud: empty (public), usgov or china"),
    batchSize: z.number().int().optional().describe("Default batch size of bulk operations (1-1000)"),
    setDefault: z.boolean().optional().describe("Make this the default profile"),
  }),
  annotations: { ...LOCAL_WRITE, idempotent: false },
  run: (context, input) => Promise.resolve(profileService(context).add(input)),
});

export const profileRemove = defineOperation({
  id: "profile.remove",
  group: "profile",
  command: "remove",
  summary: "Remove a connection profile",
  input: z.object({ name: profileName }),
  positionals: ["name"],
  annotations: { ...LOCAL_WRITE, destructive: true },
  run: (context, input) => Promise.resolve(profileService(context).remove(input.name)),
});

export const profileList = defineOperation({
  id: "profile.list_profiles",
  group: "profile",
  command: "list_profiles",
  aliases: ["list"],
  summary: "List the connection profiles, marking the default and the active one",
  input: z.object({}),
  annotations: LOCAL_READ,
  run: (context) => Promise.resolve(profileService(context).list()),
});

export const profileSetDefault = defineOperation({
  id: "profile.set_default",
  group: "profile",
  command: "set_default",
  summary: "Make a profile the default",
  input: z.object({ name: profileName }),
  positionals: ["name"],
  annotations: LOCAL_WRITE,
  run: (context, input) => Promise.resolve(profileService(context).setDefault(input.name)),
});

export const profileStatus = defineOperation({
  id: "profile.status",
  group: "profile",
  command: "status",
  summary: "Show the active profile, credential, account, endpoint and whether a token can be had now",
  description: "Reports which profile (and from where) and which credential kind are in use, the account, " +
    "region and endpoints, and tries to get a token within a few seconds, naming whom it was issued to. " +
    "Never prints a token or a secret; a loopback endpoint (the emulator) needs no token.",
  input: z.object({}),
  annotations: { ...LOCAL_READ, openWorld: true },
  run: (context) => profileService(context).status(context.signal),
});

export const PROFILE_OPERATIONS: Operation[] = [
  profileAdd,
  profileRemove,
  profileList,
  profileSetDefault,
  profileStatus,
];
