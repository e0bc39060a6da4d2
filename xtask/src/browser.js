// Measures one page of the built book as a reader's browser lays it out, for
// the browser test (`xtask/src/browser.rs`, which judges what this returns).
// WebDriver runs this text as the body of a function and awaits the promise
// it returns; the result comes back as JSON.
return (async () => {
    // chromedriver's navigation now and then returns while the new page is
    // still loading (readyState "loading", no <main> yet): wait for its load
    // event, which also waits for its style sheets and images.
    if (document.readyState !== 'complete') {
        await new Promise(done => window.addEventListener('load', done, { once: true }));
    }
    const main = document.querySelector('main');
    if (!main) {
        return { error: `the page has no <main> element (${location.href}, ${document.readyState}, ${document.documentElement.outerHTML.length} characters)` };
    }

    // Lazy images load only near the viewport: ask for every one now, then
    // wait until each has loaded or failed (or 20 s have passed), and for the
    // web fonts, which set the widths of the tables and code.
    const images = [...main.querySelectorAll('img')];
    for (const img of images) {
        img.loading = 'eager';
    }
    const settled = img => img.complete ? null : new Promise(done => {
        img.addEventListener('load', done, { once: true });
        img.addEventListener('error', done, { once: true });
    });
    const timeout = new Promise(done => setTimeout(done, 20000));
    await Promise.race([Promise.all(images.map(settled)), timeout]);
    await document.fonts.ready;

    // Where an element sits: the id of the last heading before it.
    const headings = [...main.querySelectorAll('h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]')];
    const under = el => {
        let last = null;
        for (const h of headings) {
            if (!(h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) {
                break;
            }
            last = h.id;
        }
        return last;
    };
    const short = text => {
        const t = text.replace(/\s+/g, ' ').trim();
        return t.length > 60 ? t.slice(0, 59) + '…' : t;
    };

    // The column: <main>'s content box, in viewport coordinates.
    const style = getComputedStyle(main);
    const columnLeft = main.getBoundingClientRect().left + main.clientLeft + parseFloat(style.paddingLeft);
    const column = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);

    // An element's width is its box's plus what scrolling hides: a table
    // wider than mdBook's wrapper keeps its full box (the wrapper clips it),
    // a code block's overflow is hidden inside the <code> that scrolls in
    // its <pre>.
    const hidden = el => Math.max(0, el.scrollWidth - el.clientWidth);
    const boxes = [];
    const measure = (kind, elements, label, scrollers) => elements.forEach((el, i) => {
        const r = el.getBoundingClientRect();
        boxes.push({
            kind,
            index: i + 1,
            label: label(el),
            under: under(el),
            left: r.left - columnLeft,
            width: r.width + Math.max(0, ...scrollers(el).map(hidden)),
        });
    });
    measure('table', [...main.querySelectorAll('table')],
        t => short([...(t.rows[0] ? t.rows[0].cells : [])].map(c => c.textContent).join(' | ')),
        t => [t]);
    measure('code block', [...main.querySelectorAll('pre')],
        p => short(p.textContent.trim().split('\n')[0]),
        p => [p, ...p.querySelectorAll('code')]);
    measure('image', images, img => img.getAttribute('src') || '', img => [img]);

    return {
        viewport: [window.innerWidth, window.innerHeight],
        sidebar: document.documentElement.classList.contains('sidebar-visible'),
        column,
        boxes,
        images: images.map(img => ({
            src: img.getAttribute('src') || '',
            loaded: img.complete && img.naturalWidth > 0,
            under: under(img),
        })),
        links: [...main.querySelectorAll('a[href]')].map(a => ({
            href: a.getAttribute('href'),
            url: a.href,
            label: short(a.textContent),
            under: under(a),
        })),
        ids: [
            ...[...document.querySelectorAll('[id]')].map(e => e.id),
            ...[...document.querySelectorAll('a[name]')].map(a => a.name),
        ],
    };
})();
