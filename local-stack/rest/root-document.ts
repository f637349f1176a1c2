// `GET /rest/v1/`: PostgREST's OpenAPI document, here only its paths (every table, view and
// function of the exposed schema).
import type { ServerResponse } from 'node:http';
import type { RestRuntime } from './context.ts';
import { plan } from './plan.ts';
import { sendText } from './responses.ts';

export async function sendRootDocument(rt: RestRuntime, res: ServerResponse, startedAt: number) {
  const snapshot = await plan(rt.cache, startedAt, (s) => s);
  const paths: Record<string, object> = { '/': {} };
  for (const name of [...snapshot.tables.keys()].sort()) paths[`/${name}`] = {};
  for (const name of [...snapshot.functions.keys()].sort()) paths[`/rpc/${name}`] = {};
  const doc = {
    swagger: '2.0',
    info: { title: 'tinyback local REST API', version: '14' },
    basePath: '/',
    schemes: ['http'],
    consumes: ['application/json'],
    produces: ['application/json'],
    paths,
  };
  sendText(res, 200, JSON.stringify(doc), 'application/openapi+json; charset=utf-8', {});
}
