/**
 * The report page's script, inlined and allowed by its hash. It reads the items from the page's
 * JSON data block and renders one page of them at a time, so a run of 1,000 items x 5 scorers
 * opens at once; filtering, sorting and paging happen here. Every string goes in as text
 * (`textContent`), never as markup. Plain ES2017, no template literals (this file is one).
 */
export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var scorers = data.scorers;
  var items = data.items;
  var PAGE_SIZE = 50;
  var state = { failing: false, query: '', sortKey: -1, dir: 1, page: 0 };
  var $ = function (id) { return document.getElementById(id); };
  var list = $('items'), status = $('status'), failingButton = $('failing'), sortSelect = $('sort');
  var search = $('search'), prev = $('prev'), next = $('next'), pageLabel = $('page-label');
  var haystacks = null;

  function misses(scorer, run) {
    if (!run || run[0] === null) return false;
    var score = run[0];
    return (scorer.gate && score < 1) || (scorer.min !== null && score < scorer.min) || (scorer.max !== null && score > scorer.max);
  }
  function isFailing(item) {
    for (var k = 0; k < scorers.length; k++) if (misses(scorers[k], item[5][k])) return true;
    return false;
  }
  function haystack(position) {
    if (!haystacks) haystacks = [];
    var text = haystacks[position];
    if (text === undefined) {
      var item = items[position];
      var parts = ['#' + item[0], item[7], item[1], item[3], item[4] || ''];
      item[5].forEach(function (run) { if (run && run[1]) parts.push(run[1]); });
      (item[6] || []).forEach(function (turn) { parts.push(turn[0], turn[1]); });
      (item[9] || []).forEach(function (step) { parts.push(step[0], step[2], step[3]); });
      text = haystacks[position] = parts.join('\\n').toLowerCase();
    }
    return text;
  }
  function fmt(score) { return String(Math.round(score * 1000) / 1000); }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function visible() {
    var query = state.query.toLowerCase();
    var shown = [];
    for (var i = 0; i < items.length; i++) {
      if (state.failing && !isFailing(items[i])) continue;
      if (query && haystack(i).indexOf(query) === -1) continue;
      shown.push(items[i]);
    }
    if (state.sortKey >= 0) {
      var k = state.sortKey, dir = state.dir;
      var key = function (item) { var run = item[5][k]; return run && run[0] !== null ? run[0] : null; };
      shown.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === null || y === null) return x === y ? a[0] - b[0] : x === null ? 1 : -1;
        return x === y ? a[0] - b[0] : (x - y) * dir;
      });
    }
    return shown;
  }

  // The scores of one turn (or of none: null) and one step (or of none: null, where the item's steps are
  // shown apart; undefined takes every step's scores too).
  function scoreTable(item, turn, step) {
    var table = el('table');
    var head = el('tr');
    var titles = ['Scorer', 'Score', 'Reason', 'Judge'];
    if (data.baseline) titles.splice(2, 0, 'Baseline');
    titles.forEach(function (title) {
      var th = el('th', '', title);
      th.scope = 'col';
      head.appendChild(th);
    });
    table.appendChild(el('thead')).appendChild(head);
    var rows = table.appendChild(el('tbody'));
    var count = 0;
    scorers.forEach(function (scorer, k) {
      var run = item[5][k];
      if (!run || scorer.turn !== turn) return;
      if (step !== undefined && scorer.step !== step) return;
      count++;
      var row = el('tr');
      var name = el('th', '', scorer.id + (scorer.gate && scorer.turn === null ? ' (gate)' : ''));
      name.scope = 'row';
      row.appendChild(name);
      var miss = misses(scorer, run);
      row.appendChild(el('td', run[0] === null ? 'neutral' : miss ? 'bad' : '',
        run[0] === null ? 'not scorable' : fmt(run[0]) + (miss ? ' (misses)' : '')));
      if (data.baseline) {
        var was = run[3];
        var drop = was !== null && run[0] !== null && (scorer.lower ? run[0] > was : run[0] < was);
        row.appendChild(el('td', was === null ? 'neutral' : drop ? 'bad' : '',
          was === null ? '—' : fmt(was) + (drop ? (scorer.lower ? ' (was lower)' : ' (was higher)') : '')));
      }
      row.appendChild(el('td', run[1] ? 'reason' : 'neutral', run[1] || '—'));
      row.appendChild(el('td', '', run[2] === 1 ? 'cached' : run[2] === 0 ? 'live' : '—'));
      rows.appendChild(row);
    });
    return count > 0 ? table : null;
  }

  // Two texts side by side (a narrow window stacks them), each under its heading.
  function beside(leftTitle, left, rightTitle, right, className) {
    var pair = el('div', 'side ' + className);
    [[leftTitle, left], [rightTitle, right]].forEach(function (part) {
      var column = el('div');
      column.appendChild(el('h4', '', part[0]));
      column.appendChild(el('pre', '', part[1]));
      pair.appendChild(column);
    });
    return pair;
  }

  function renderItem(item) {
    var details = el('details', 'item');
    var summary = el('summary');
    summary.appendChild(el('span', 'idx', '#' + item[0]));
    summary.appendChild(el('span', 'preview', item[2] || '(empty input)'));
    var chips = el('span', 'chips');
    scorers.forEach(function (scorer, k) {
      var run = item[5][k];
      if (!run) return;
      var miss = misses(scorer, run);
      var chip = el('span', 'chip' + (run[0] === null ? ' ns' : miss ? ' miss' : ''),
        scorer.id + ' ' + (run[0] === null ? 'not scorable' : fmt(run[0])) + (miss ? ' (misses)' : ''));
      chips.appendChild(chip);
    });
    summary.appendChild(chips);
    details.appendChild(summary);

    var body = el('div', 'body');
    body.appendChild(el('p', 'ident', 'Item id: ' + item[7]));
    var turns = item[6];
    if (turns) {
      body.appendChild(el('h4', '', 'Conversation: ' + turns.length + (turns.length === 1 ? ' turn' : ' turns')));
    } else {
      body.appendChild(el('h4', '', 'Input'));
      body.appendChild(el('pre', '', item[1]));
      if (item[8] === null) {
        body.appendChild(el('h4', '', 'Output'));
        body.appendChild(el('pre', '', item[3]));
      }
    }
    if (item[8] !== null) body.appendChild(beside('Output in this run', item[3], 'Output in the baseline', item[8], 'outputs'));
    if (turns) {
      turns.forEach(function (turn, t) {
        var box = el('section', 'turn');
        box.appendChild(el('h5', '', 'Turn ' + t));
        box.appendChild(el('h4', '', 'Input'));
        box.appendChild(el('pre', '', turn[0]));
        box.appendChild(el('h4', '', 'Reply'));
        box.appendChild(el('pre', '', turn[1]));
        var own = scoreTable(item, t);
        if (own) {
          box.appendChild(el('h4', '', 'Scores of this turn'));
          box.appendChild(own);
        }
        body.appendChild(box);
      });
    }
    if (item[4] !== null) {
      body.appendChild(el('h4', '', 'Ground truth'));
      body.appendChild(el('pre', '', item[4]));
    }
    var steps = item[9];
    if (steps) {
      body.appendChild(el('h4', '', 'Steps: ' + steps.length));
      steps.forEach(function (step) {
        var box = el('section', 'step');
        box.appendChild(el('h5', '', 'Step ' + step[0] + ' (' + step[1] + ')'));
        box.appendChild(beside('Input', step[2], step[4] === null ? 'Output' : 'Error', step[4] === null ? step[3] : step[4], 'step'));
        var own = scoreTable(item, null, step[0]);
        if (own) {
          box.appendChild(el('h4', '', 'Scores of this step'));
          box.appendChild(own);
        }
        body.appendChild(box);
      });
    }
    var table = scoreTable(item, null, steps ? null : undefined);
    if (table) {
      body.appendChild(el('h4', '', turns ? 'Scores of the whole conversation' : 'Scores'));
      body.appendChild(table);
    }
    details.appendChild(body);
    return details;
  }

  function render() {
    var shown = visible();
    var pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
    if (state.page >= pages) state.page = pages - 1;
    var start = state.page * PAGE_SIZE;
    var slice = shown.slice(start, start + PAGE_SIZE);
    var fragment = document.createDocumentFragment();
    slice.forEach(function (item) { fragment.appendChild(renderItem(item)); });
    if (slice.length === 0) fragment.appendChild(el('p', 'empty', 'No item matches.'));
    list.replaceChildren(fragment);
    var of = shown.length === items.length ? items.length + ' items' : shown.length + ' of ' + items.length + ' items';
    status.textContent = slice.length === 0 ? 'Showing 0 of ' + of.replace(/^\\d+ of /, '')
      : 'Showing ' + (start + 1) + '–' + (start + slice.length) + ' of ' + of;
    pageLabel.textContent = 'Page ' + (state.page + 1) + ' of ' + pages;
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages - 1;
  }

  function setSort(value) {
    var parts = value.split(':');
    state.sortKey = parts[0] === 'index' ? -1 : Number(parts[0]);
    state.dir = parts[1] === 'desc' ? -1 : 1;
    state.page = 0;
    render();
  }

  failingButton.addEventListener('click', function () {
    state.failing = !state.failing;
    failingButton.setAttribute('aria-pressed', String(state.failing));
    state.page = 0;
    render();
  });
  sortSelect.addEventListener('change', function () { setSort(sortSelect.value); });
  var timer = 0;
  search.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () { state.query = search.value.trim(); state.page = 0; render(); }, 120);
  });
  prev.addEventListener('click', function () { state.page--; render(); });
  next.addEventListener('click', function () { state.page++; render(); });
  $('expand').addEventListener('click', function () {
    list.querySelectorAll('details').forEach(function (d) { d.open = true; });
  });
  $('collapse').addEventListener('click', function () {
    list.querySelectorAll('details').forEach(function (d) { d.open = false; });
  });
  document.querySelectorAll('button[data-sort]').forEach(function (button) {
    button.addEventListener('click', function () {
      sortSelect.value = button.getAttribute('data-sort');
      setSort(sortSelect.value);
      $('items-heading').focus();
    });
  });
  render();
})();
`;
