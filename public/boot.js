// Runs before the page is drawn, as a plain script (not a module, so even a browser too old for the app
// runs it and can say so). Three jobs:
// 1. The theme chosen in the header (src/theme.rs), applied before the first paint so a reload never
//    flashes the other one. Without a choice the stylesheet follows prefers-color-scheme by itself.
// 2. The service worker (sw.js), registered once the app's first parts have arrived (the app fires
//    `quorumlab-ready`) so it never competes with the first load; by a relative address, so its scope is
//    the folder the app was deployed to.
// 3. Words instead of a page that stays blank when the app cannot start: a browser without WebAssembly
//    or modules, or a file of the build that does not arrive.
(function () {
  var root = document.documentElement;
  root.classList.add('js');
  try {
    var theme = localStorage.getItem('quorumlab-theme');
    if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
  } catch (refused) {}

  if ('serviceWorker' in navigator) {
    var registered = false;
    var register = function () {
      if (registered) return;
      registered = true;
      navigator.serviceWorker.register('sw.js').catch(function () {});
    };
    // The app says when the parts it fetches right after starting have arrived; a page that never
    // says so (its start failed, or a part could not be fetched) registers a while after loading.
    addEventListener('quorumlab-ready', register);
    addEventListener('load', function () {
      setTimeout(register, 15000);
    });
  }

  /** Replaces the loading state with a sentence saying why the app did not start. */
  function failed(title, detail) {
    var boot = document.getElementById('boot');
    // Gone: the app is already running, and a late failure belongs to it. Already failed: the first
    // cause is the one to read (without WebAssembly, the start fails too, for that reason).
    if (!boot || boot.classList.contains('failed')) return;
    boot.classList.add('failed');
    document.getElementById('boot-title').textContent = title;
    document.getElementById('boot-detail').textContent = detail;
    var bar = document.getElementById('boot-progress');
    if (bar) bar.hidden = true;
  }
  window.quorumlabBootFailed = failed;

  // A script, stylesheet or preloaded module of the build that fails to arrive fires `error` on its
  // element; it does not bubble, so it is caught on the way down.
  addEventListener(
    'error',
    function (event) {
      var element = event.target;
      if (!element || element === window || !element.tagName) return;
      var address = element.src || element.href || '';
      if (!/\.(js|wasm|css)(\?|$)/.test(address)) return;
      failed(
        'Quorum Lab could not load one of its files.',
        'The file ' + address.replace(/^.*\//, '') + ' did not arrive. Reload the page; if this keeps ' +
          'happening, the site may be in the middle of an update, or the folder was copied incompletely.',
      );
    },
    true,
  );

  document.addEventListener('DOMContentLoaded', function () {
    var modules = 'noModule' in document.createElement('script');
    if (typeof WebAssembly !== 'object' || !modules) {
      failed(
        'This browser cannot run Quorum Lab.',
        'The simulator is compiled to WebAssembly, which this browser does not run (or runs only with ' +
          'modules switched off). Any current Firefox, Chrome, Edge or Safari can open it.',
      );
    }
  });
})();
