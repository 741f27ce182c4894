import { describe, expect, it } from 'vitest';
import { autostartNote, keepRunningText } from './background';

const loc = '/home/ann/.config/autostart/strata.desktop';

describe('autostartNote', () => {
  it('off', () => {
    expect(autostartNote({ enabled: false, current: false, location: loc, command: '' })).toEqual({
      text: 'Starts in the background, without a window, each time you log in.',
      tone: 'muted',
    });
  });
  it('on, for this copy and folder: says where the entry is', () => {
    expect(autostartNote({ enabled: true, current: true, location: loc, command: '/usr/bin/strata --hidden' }).text).toBe(
      `Starts in the background, without a window. Entry: ${loc}`,
    );
  });
  it('on, for another copy or folder: a warning that names what it starts', () => {
    const n = autostartNote({ enabled: true, current: false, location: loc, command: '/opt/old/strata --data /x --hidden' });
    expect(n.tone).toBe('warn');
    expect(n.text).toContain('/opt/old/strata --data /x --hidden');
  });
  it('present but switched off elsewhere (GNOME Tweaks, Task Manager)', () => {
    expect(autostartNote({ enabled: false, current: false, location: loc, command: '/usr/bin/strata --hidden' }).text).toContain('switched off');
  });
  it('unreadable, and absent (browser)', () => {
    expect(autostartNote(undefined, 'permission denied')).toEqual({ text: 'Could not read the login item: permission denied', tone: 'warn' });
    expect(autostartNote(undefined).text).toBe('');
  });
});

describe('keepRunningText', () => {
  it('says what closing the window does', () => {
    expect(keepRunningText(true)).toContain('keep working after you close this window');
    expect(keepRunningText(false)).toContain('Closing the window quits Strata');
  });
});
