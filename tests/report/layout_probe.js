// Test-only layout probe, appended to a report page by tests/report/chromium_harness.cpp. It measures
// the page after Chromium laid it out and writes what it found as JSON: on screen into a hidden pre
// element (id gpuvet-layout) read back from --dump-dom; in print (the layout --print-to-pdf paginates)
// into document.title, which Chromium writes into the PDF's /Title. The reports themselves carry no
// script.
(function () {
  'use strict';
  var kLimit = 25;  // problems listed; the count covers all of them

  function describe(el) {
    var s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    var cls = el.getAttribute('class');
    if (cls) s += '.' + cls.trim().split(/\s+/).join('.');
    var text = (el.textContent || '').replace(/\s+/g, ' ').trim();
    if (text) s += ' "' + text.slice(0, 40) + '"';
    return s;
  }

  function px(v) { return Math.round(v * 10) / 10; }

  function outside(inner, outer, tolerance) {
    return inner.left < outer.left - tolerance || inner.right > outer.right + tolerance ||
           inner.top < outer.top - tolerance || inner.bottom > outer.bottom + tolerance;
  }

  function measure(media) {
    var problems = [];
    var add = function (el, why) { problems.push({element: describe(el), why: why}); };
    var doc = document.documentElement;
    // In print Chromium keeps the window's width as the root's scroll width; the boxes below are
    // checked against the printed body instead.
    if (media === 'screen' && doc.scrollWidth > doc.clientWidth + 1) {
      problems.push({element: 'the page', why: 'scrolls sideways: scrollWidth ' + doc.scrollWidth + ' > ' + doc.clientWidth});
    }
    var body = document.body.getBoundingClientRect();
    var elements = 0;
    var nodes = document.body.querySelectorAll('*');
    for (var i = 0; i < nodes.length; ++i) {
      var el = nodes[i];
      if (el.id === 'gpuvet-layout' || el.tagName.toLowerCase() === 'script') continue;
      if (el.closest('svg') !== el && el.closest('svg') !== null) continue;  // inside a picture: below
      var style = getComputedStyle(el);
      if (style.display === 'none') continue;
      ++elements;
      var clips = style.overflowX !== 'visible' || style.overflowY !== 'visible';
      if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
        add(el, 'content wider than its box: scrollWidth ' + el.scrollWidth + ' > clientWidth ' + el.clientWidth +
                (clips ? ' (overflow ' + style.overflowX + ': clipped or scrolled)' : ''));
      }
      if (clips && el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1) {
        add(el, 'content taller than its clipping box: scrollHeight ' + el.scrollHeight + ' > clientHeight ' + el.clientHeight);
      }
      if (media === 'print' && /auto|scroll/.test(style.overflowX + ' ' + style.overflowY)) {
        add(el, 'scrollable in print (overflow ' + style.overflowX + ' ' + style.overflowY + '): a printed scrollbar or cut content');
      }
      var r = el.getBoundingClientRect();
      if (r.width > 0 && (r.right > body.right + 1 || r.left < body.left - 1)) {
        add(el, 'box [' + px(r.left) + ', ' + px(r.right) + '] reaches past the body [' + px(body.left) + ', ' + px(body.right) + ']');
      }
    }
    // Pictures: each within its column; every GPU box inside the viewBox; every label inside the
    // picture as drawn (client rectangles, so rotated or scaled text counts as shown).
    var svgs = document.querySelectorAll('svg');
    var gpus = 0;
    for (var s = 0; s < svgs.length; ++s) {
      var svg = svgs[s];
      var box = svg.getBoundingClientRect();
      var column = svg.parentElement.getBoundingClientRect();
      if (box.left < column.left - 1 || box.right > column.right + 1) {
        add(svg, 'picture [' + px(box.left) + ', ' + px(box.right) + '] wider than its column [' + px(column.left) + ', ' + px(column.right) + ']');
      }
      var vb = svg.viewBox && svg.viewBox.baseVal;
      var hasViewBox = vb && vb.width > 0 && vb.height > 0;
      var boxes = svg.querySelectorAll('g.gpu');
      for (var g = 0; g < boxes.length; ++g) {
        ++gpus;
        var b = boxes[g].getBBox();
        if (!hasViewBox) {
          add(boxes[g], 'GPU box in a picture without a viewBox');
        } else if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 ||
                   b.y + b.height > vb.y + vb.height + 0.5) {
          add(boxes[g], 'GPU box (' + px(b.x) + ', ' + px(b.y) + ', ' + px(b.width) + ' x ' + px(b.height) + ') outside the viewBox (' +
                            vb.x + ' ' + vb.y + ' ' + vb.width + ' ' + vb.height + ')');
        }
      }
      var labels = svg.querySelectorAll('text');
      for (var t = 0; t < labels.length; ++t) {
        var lr = labels[t].getBoundingClientRect();
        if (lr.width > 0 && outside(lr, box, 1)) {
          add(labels[t], 'label [' + px(lr.left) + ', ' + px(lr.right) + '] x [' + px(lr.top) + ', ' + px(lr.bottom) +
                             '] cut by its picture [' + px(box.left) + ', ' + px(box.right) + '] x [' + px(box.top) + ', ' + px(box.bottom) + ']');
        }
      }
    }
    return {media: media, width: window.innerWidth, body_width: px(body.width), elements: elements, svgs: svgs.length,
            gpu_boxes: gpus, problem_count: problems.length, problems: problems.slice(0, kLimit)};
  }

  var out = document.createElement('pre');
  out.id = 'gpuvet-layout';
  out.textContent = JSON.stringify(measure('screen'));
  out.style.display = 'none';
  document.body.appendChild(out);
  var print = window.matchMedia('print');
  var onPrint = function (e) { if (e.matches) document.title = 'gpuvet-layout:' + JSON.stringify(measure('print')); };
  if (print.addEventListener) print.addEventListener('change', onPrint); else print.addListener(onPrint);
})();
