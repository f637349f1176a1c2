// Node 20 has no URLPattern; Deno, where the Edge Functions run, has it built in. The functions'
// unit tests (the `node` project) get the WHATWG polyfill, which sets it only where it is missing.
import 'urlpattern-polyfill';
