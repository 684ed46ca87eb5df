// In-page MCP Apps host for the tests (bundled by app-host.ts): the official ext-apps AppBridge and PostMessageTransport
// driving the plan view in a sandboxed iframe of another origin, recording what the view asks of its host.
import { AppBridge, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';

export interface HostRecord {
  sizes: { width?: number; height?: number }[];
  openedLinks: string[];
  initialized: boolean;
  appInfo: unknown;
}

declare global {
  interface Window {
    sessionplanHost: {
      start(viewUrl: string, hostContext: McpUiHostContext, openLinks: 'accept' | 'refuse'): Promise<void>;
      sendToolInput(args: Record<string, unknown>): Promise<void>;
      sendToolResult(result: Record<string, unknown>): Promise<void>;
      setHostContext(context: McpUiHostContext): void;
      record: HostRecord;
    };
  }
}

let bridge: AppBridge | undefined;
const record: HostRecord = { sizes: [], openedLinks: [], initialized: false, appInfo: undefined };

window.sessionplanHost = {
  record,
  async start(viewUrl, hostContext, openLinks) {
    const frame = document.createElement('iframe');
    frame.title = 'Sessionplan plan view';
    // The spec's sandbox: scripts and its own (different) origin, nothing else.
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
    frame.style.cssText = 'display:block;width:100%;height:150px;border:1px solid #c9ced8;border-radius:8px;';
    document.getElementById('host')!.append(frame);
    const view = frame.contentWindow!;
    bridge = new AppBridge(null, { name: 'sessionplan-test-host', version: '1.0.0' }, { openLinks: {}, logging: {} }, { hostContext });
    bridge.onsizechange = ({ width, height }) => {
      record.sizes.push({ width, height });
      if (height !== undefined) frame.style.height = `${height}px`;
    };
    bridge.onopenlink = async ({ url }) => {
      record.openedLinks.push(url);
      if (openLinks === 'refuse') throw new Error('Link opening denied by user');
      return {};
    };
    const initialized = new Promise<void>((resolve) => {
      bridge!.oninitialized = () => {
        record.initialized = true;
        record.appInfo = bridge!.getAppVersion();
        resolve();
      };
    });
    await bridge.connect(new PostMessageTransport(view, view));
    frame.src = viewUrl;
    await initialized;
  },
  sendToolInput: (args) => bridge!.sendToolInput({ arguments: args }),
  sendToolResult: (result) => bridge!.sendToolResult(result as Parameters<AppBridge['sendToolResult']>[0]),
  setHostContext: (context) => bridge!.setHostContext(context),
};
