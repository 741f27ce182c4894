// What the settings screen says about running in the background and starting at login. The
// state comes from Go (app.Settings): the login item is read back from its file or registry
// value, so the words describe what is really there.

import type { Autostart } from './types';

/** The line under "Keep running when the window is closed", for the switch's position. */
export function keepRunningText(on: boolean): string {
  return on
    ? 'Watched folders, imports and your AI tools’ connection keep working after you close this window. Open Strata again to bring it back; Quit stops everything.'
    : 'Closing the window quits Strata: watched folders are not read and AI tools lose the HTTP endpoint until you open it again.';
}

export interface AutostartNote {
  text: string;
  tone: 'muted' | 'warn';
}

/** The line under "Start Strata when I log in". */
export function autostartNote(a: Autostart | undefined, error = ''): AutostartNote {
  if (error) return { text: `Could not read the login item: ${error}`, tone: 'warn' };
  if (!a) return { text: '', tone: 'muted' };
  if (a.enabled && !a.current) {
    return {
      text: `A login item is there, but it starts ${a.command || 'something else'} — another copy of Strata or another data folder. Turn it off and on to start this one.`,
      tone: 'warn',
    };
  }
  if (a.enabled) return { text: `Starts in the background, without a window. Entry: ${a.location}`, tone: 'muted' };
  if (a.command) return { text: `The entry at ${a.location} is switched off in your desktop’s settings.`, tone: 'muted' };
  return { text: 'Starts in the background, without a window, each time you log in.', tone: 'muted' };
}
