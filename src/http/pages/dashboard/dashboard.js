// The dashboard's own script (the pages work without it): the live rows of the events and requests pages.
// A Server-Sent Events stream says when the group has new events; unless the reader paused
// the view (or is reading further down the page), htmx reloads the rows (hx-trigger
// "payctl:events"). Everything else is plain HTML forms and links.
(function () {
  'use strict';
  function start() {
    var rows = document.querySelector('[data-live-url]');
    if (!rows || typeof EventSource === 'undefined') return;
    // What the rows are (their region's label: Events, Requests), for the status line.
    var what = (rows.getAttribute('aria-label') || 'events').toLowerCase();
    var paused = false;
    var pending = false;
    var state = document.querySelector('[data-live-state]');
    var button = document.querySelector('[data-pause]');
    var say = function (text) {
      if (state) state.textContent = text;
    };
    var refresh = function () {
      pending = false;
      document.body.dispatchEvent(new CustomEvent('payctl:events'));
    };
    if (button) {
      button.addEventListener('click', function () {
        paused = !paused;
        button.setAttribute('aria-pressed', String(paused));
        button.textContent = paused ? 'Resume' : 'Pause';
        say(paused ? 'Paused: new ' + what + ' are held until you resume.' : 'Live: new ' + what + ' appear here.');
        if (!paused && pending) refresh();
      });
    }
    var source = new EventSource(rows.getAttribute('data-live-url'));
    source.addEventListener('ready', function () {
      document.documentElement.setAttribute('data-live', 'ready');
    });
    source.addEventListener('events', function () {
      if (paused) {
        pending = true;
        say('Paused: new ' + what + ' are waiting.');
        return;
      }
      refresh();
    });
    window.addEventListener('pagehide', function () {
      source.close();
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
