/**
 * Route builders for the parts of the untyped data quality contract whose bodies are empty schemas
 * (`{}`): alerts, schedules, data sources, integration runtimes, runtime configuration, asset metadata.
 * What is sent is stored as sent and returned as stored; the emulator adds only an `id` (when the body
 * has none), `createdAt` and `lastModifiedAt`. That is the whole of their behaviour: create, read, list,
 * replace, merge and delete, with 404 for what does not exist and 409 for a create of an id that does.
 *
 * Lists answer `{"value": [...], "count": n}` in creation order, filtered by `?name=` (case-insensitive
 * substring of `name`) when given; the contract names a `$skipToken` but no envelope, so there is one page.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { conflict, invalidField, notFound, objectBody } from "./errors.ts";
import type { Doc, QualityStore } from "./store.ts";

/** What the generic routes need. */
export interface GenericKit {
  store: QualityStore;
  now(): number;
}

/** A collection of documents under `path`, one per `{idParam}`. */
export interface CollectionSpec {
  kind: string;
  label: string;
  path: string;
  idParam: string;
  /** The scope the documents live in (e.g. the business domain of the path). */
  scope(ctx: RouteContext): string;
  /** Methods on `path/{idParam}` (default GET, PUT, DELETE). */
  itemMethods?: string[];
  /** Changes a document before it is answered (e.g. masks secrets). */
  present?(doc: Doc): Doc;
  /** Extra filters of a list by query parameter. */
  listFilter?(doc: Doc, query: URLSearchParams): boolean;
}

/** GET and POST on the collection, and its item routes. */
export function collectionRoutes(kit: GenericKit, spec: CollectionSpec): RouteDefinition[] {
  const { store } = kit;
  const present = spec.present ?? ((doc: Doc) => doc);
  const iso = () => new Date(kit.now()).toISOString();
  const find = (ctx: RouteContext): Doc => {
    const doc = store.get(spec.kind, spec.scope(ctx), ctx.params[spec.idParam]);
    if (!doc) throw notFound(spec.label, ctx.params[spec.idParam]);
    return doc;
  };
  const methods = new Set(spec.itemMethods ?? ["GET", "PUT", "DELETE"]);
  const routes: RouteDefinition[] = [
    {
      method: "GET",
      path: spec.path,
      handler: (ctx) => {
        const name = ctx.url.searchParams.get("name")?.toLowerCase();
        const value = store.list(spec.kind, spec.scope(ctx))
          .filter((doc) => !name || String(doc.name ?? "").toLowerCase().includes(name))
          .filter((doc) => spec.listFilter?.(doc, ctx.url.searchParams) ?? true)
          .map(present);
        return jsonResponse({ value, count: value.length });
      },
    },
    {
      method: "POST",
      path: spec.path,
      handler: async (ctx) => {
        const body = await objectBody(ctx, `the ${spec.label} as a JSON object`);
        const id = documentId(body);
        if (store.get(spec.kind, spec.scope(ctx), id)) {
          throw conflict(
            "AlreadyExists",
            `A ${spec.label} with id '${id}' already exists; use PUT to replace it.`,
            "id",
          );
        }
        const doc = { ...body, id, createdAt: iso(), lastModifiedAt: iso() };
        store.put(spec.kind, spec.scope(ctx), id, doc);
        return jsonResponse(present(doc));
      },
    },
  ];
  return [...routes, ...itemRoutes(kit, spec, find, methods)];
}

/** GET, PUT, PATCH and DELETE on one document of a collection, as `methods` says. */
function itemRoutes(
  kit: GenericKit,
  spec: CollectionSpec,
  find: (ctx: RouteContext) => Doc,
  methods: Set<string>,
): RouteDefinition[] {
  const { store } = kit;
  const present = spec.present ?? ((doc: Doc) => doc);
  const iso = () => new Date(kit.now()).toISOString();
  const item = `${spec.path}/{${spec.idParam}}`;
  const routes: RouteDefinition[] = [];
  if (methods.has("GET")) {
    routes.push({
      method: "GET",
      path: item,
      handler: (ctx) => jsonResponse(present(find(ctx))),
    });
  }
  if (methods.has("PUT")) {
    routes.push({
      method: "PUT",
      path: item,
      handler: async (ctx) => {
        const body = await objectBody(ctx, `the ${spec.label} as a JSON object`);
        const id = ctx.params[spec.idParam];
        if (body.id !== undefined && String(body.id) !== id) {
          throw invalidField(
            "id",
            `The body's id '${body.id}' is not the ${spec.label} of the path ('${id}').`,
          );
        }
        const previous = store.get(spec.kind, spec.scope(ctx), id);
        const doc = { ...body, id, createdAt: previous?.createdAt ?? iso(), lastModifiedAt: iso() };
        store.put(spec.kind, spec.scope(ctx), id, doc);
        return jsonResponse(present(doc));
      },
    });
  }
  if (methods.has("PATCH")) {
    routes.push({
      method: "PATCH",
      path: item,
      handler: async (ctx) => {
        const previous = find(ctx);
        const body = await objectBody(ctx, `the ${spec.label}'s fields to change`);
        const doc = {
          ...previous,
          ...body,
          id: previous.id,
          createdAt: previous.createdAt,
          lastModifiedAt: iso(),
        };
        store.put(spec.kind, spec.scope(ctx), String(previous.id), doc);
        return jsonResponse(present(doc));
      },
    });
  }
  if (methods.has("DELETE")) {
    routes.push({
      method: "DELETE",
      path: item,
      handler: (ctx) => {
        const doc = find(ctx);
        store.remove(spec.kind, spec.scope(ctx), String(doc.id));
        return jsonResponse(present(doc));
      },
    });
  }
  return routes;
}

/** One document at `path` per scope (a domain's runtime configuration, an asset's metadata). */
export interface SingletonSpec {
  kind: string;
  label: string;
  path: string;
  scope(ctx: RouteContext): string;
  /** Which of GET, POST (create, 409 when there is one), PUT (create or replace), DELETE the path takes. */
  methods: string[];
  /** Fields the emulator sets on every write (e.g. the references of the path). */
  fill?(ctx: RouteContext): Doc;
}

/** The routes of a singleton document. */
export function singletonRoutes(kit: GenericKit, spec: SingletonSpec): RouteDefinition[] {
  const { store } = kit;
  const get = (ctx: RouteContext) => store.get(spec.kind, spec.scope(ctx), "current");
  const write = async (ctx: RouteContext, create: boolean) => {
    const body = await objectBody(ctx, `the ${spec.label} as a JSON object`);
    const previous = get(ctx);
    if (create && previous) {
      throw conflict("AlreadyExists", `The ${spec.label} already exists; use PUT to replace it.`);
    }
    const at = new Date(kit.now()).toISOString();
    const doc = { ...body, ...spec.fill?.(ctx), createdAt: previous?.createdAt ?? at, lastModifiedAt: at };
    store.put(spec.kind, spec.scope(ctx), "current", doc);
    return jsonResponse(doc);
  };
  const handlers: Record<string, RouteDefinition["handler"]> = {
    GET: (ctx) => {
      const doc = get(ctx);
      if (!doc) throw notFound(spec.label, spec.scope(ctx));
      return jsonResponse(doc);
    },
    POST: (ctx) => write(ctx, true),
    PUT: (ctx) => write(ctx, false),
    DELETE: (ctx) => {
      const doc = get(ctx);
      if (!doc) throw notFound(spec.label, spec.scope(ctx));
      store.remove(spec.kind, spec.scope(ctx), "current");
      return jsonResponse(doc);
    },
  };
  return spec.methods.map((method) => ({ method, path: spec.path, handler: handlers[method] }));
}

/** The id a created document gets: the body's `id` when it is a non-empty string, else a new uuid. */
export function documentId(body: Doc): string {
  if (body.id === undefined || body.id === null) return crypto.randomUUID();
  if (typeof body.id !== "string" || body.id.trim() === "" || body.id.includes("/")) {
    throw invalidField("id", `id must be a non-empty string without '/', got ${JSON.stringify(body.id)}.`);
  }
  return body.id;
}
