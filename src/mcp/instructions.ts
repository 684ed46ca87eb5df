// Workflow instructions sent in `server/discover` and `initialize`: the four bullets of the workflow and data contract (docs/http-api.md).

export const WORKFLOW_INSTRUCTIONS = [
  'Sessionplan creates and decodes immutable snapshot links of workshop session plans.',
  '',
  'Workflow and data contract:',
  '• New plan: call create_session_link with a complete session.',
  '• Existing snapshot: call decode_session_link before reading, summarizing or editing it. Use structuredContent.session as the source of truth.',
  '• Changes: submit the complete updated session to create_session_link. Patches and partial updates are not supported.',
  '• Return structuredContent.link verbatim. Do not reconstruct, shorten, normalize or edit the snapshot URL.',
  '• Dynamic server links and legacy pre-v2 snapshot codes are not supported by these tools; supply a #data=v2:... snapshot link instead.',
  '',
  'The canonical JSON Schema of a session is embedded in the create_session_link input schema.',
].join('\n');
