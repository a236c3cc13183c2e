/// The teaching page's stylesheet, legend and script: written by hand, inline, nothing fetched.
extension TeachingPage {
    static let css = """
    body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
    header,footer{padding:8px 16px;background:#eef1f5}header h1{font-size:20px;margin:4px 0}header p{margin:0;color:#555}
    main.runs{display:grid;gap:12px;padding:12px;grid-template-columns:minmax(0,1fr)}
    main.n2{grid-template-columns:repeat(auto-fit,minmax(min(100%,var(--run)),1fr))}main.n2.side{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}
    button.layout{font:inherit;font-size:12px;padding:0 6px}button.layout[aria-pressed=true]{background:#3b6fd4;color:#fff}
    section.run{background:#fff;border:2px solid #d0d7de;border-radius:6px;padding:8px 12px;min-width:0}
    section.run.focus{border-color:#3b6fd4}h2{font-size:18px;margin:4px 0}h3{font-size:15px;margin:12px 0 4px}
    .sum{color:#555;margin:2px 0}.ok{color:#1a7f37;font-weight:600}.bad{color:#c62828;font-weight:600}
    ol.verdicts{list-style:none;padding:0;margin:0}ol.verdicts li{margin:2px 0;padding:3px 6px;border-radius:4px;cursor:pointer}
    li.pass{background:#e6f4ea}li.fail{background:#fde2e1}li.note{background:#fff4d6}li.changed{background:#e3ecfb}li b{font-size:11px;margin-right:4px}
    .controls{position:sticky;top:0;background:#fff;padding:6px 0;z-index:2;display:flex;gap:4px;align-items:center;flex-wrap:wrap}
    .controls button{font:inherit;padding:2px 8px}.controls input{flex:1;min-width:120px}.pos{font-variant-numeric:tabular-nums;color:#555}
    .now{background:#f3f6fb;border-left:4px solid #3b6fd4;padding:6px 8px;min-height:40px}.now .what{font-weight:500}
    .now ul.here{margin:4px 0 0;padding-left:18px}.now ul.here li.pass{color:#1a7f37}.now ul.here li.fail{color:#c62828}.now ul.here li.note{color:#8a6100}.now ul.here li.changed{color:#1f3f8f}
    .cap{background:#fff4d6;padding:4px 8px;border-radius:4px}
    .state{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}.state table{border-collapse:collapse;font-size:12px;flex:1 1 420px}.state table[data-panel=devices]{flex-basis:100%}
    table caption{text-align:left;font-weight:600;padding:2px 0}th,td{border:1px solid #d0d7de;padding:1px 4px;text-align:left;vertical-align:top;overflow-wrap:break-word}
    th{background:#f6f8fa}tr.changed td{background:#fff8c5}
    .diagram{overflow:auto;max-height:70vh;border:1px solid #d0d7de}
    svg.lanes{font:11px ui-monospace,Menlo,Consolas,monospace;display:block;max-width:100%;height:auto}
    svg .ll{stroke:#b8c0cc;stroke-dasharray:3 3}svg .lt{font-size:10px;font-weight:700;text-anchor:middle}svg .ls{font-size:10px;fill:#6e7781;text-anchor:middle}
    svg .b0{fill:#ffffff}svg .b1{fill:#f3f5f8}svg .cl{font-weight:700;fill:#3b4a5e}svg .t{fill:#6e7781}
    svg .x line,svg .x path{stroke-width:1.6;fill:none}svg .x{cursor:pointer}
    .x.ok line,.x.ok path,.m-ok{stroke:#1a7f37;fill:#1a7f37}.x.refused line,.x.refused path,.m-refused{stroke:#b35900;fill:#b35900}
    .x.gone line,.x.gone path,.m-gone{stroke:#8250df;fill:#8250df}.x.error line,.x.error path,.m-error{stroke:#c62828;fill:#c62828}
    .x.failed line,.x.failed path,.m-failed{stroke:#c62828;fill:#c62828}.x.failed line,.x.failed path{stroke-dasharray:5 3}
    .x.open line,.x.open path,.m-open{stroke:#888;fill:#888}.x.open line{stroke-dasharray:2 3}
    .x.inj text{fill:#8250df;font-style:italic}svg .x text{fill:#24292f;stroke:none}svg .x .t{fill:#6e7781}
    svg .n circle{fill:#3b6fd4}svg .n text{fill:#1f3f8f}svg .cur rect.hl{fill:#ffe58f}svg g.cur text{font-weight:700}svg g.cur line,svg g.cur path{stroke-width:3}
    details.map{margin-top:8px}details.map table{border-collapse:collapse;font-size:12px}
    .legend span{display:inline-block;margin-right:12px}.legend i{display:inline-block;width:22px;height:3px;vertical-align:middle;margin-right:4px}
    """

    static let legend = """
    <div class="legend"><b>Arrows:</b> <span><i style="background:#1a7f37"></i>2xx answered</span><span><i style="background:#b35900"></i>4xx refused</span>\
    <span><i style="background:#8250df"></i>410 gone</span><span><i style="background:#c62828"></i>5xx, or no answer (dashed)</span>\
    <span><i style="background:#888"></i>never answered</span><span><i style="background:#3b6fd4"></i>a device shows a notification</span>\
    <span><em style="color:#8250df">italic</em>: an injected fault</span></div>
    """

    /// Reads each run's data, replays the table changes up to the current step, highlights its
    /// arrow and lists the verdicts decided there. Only `textContent` is ever set. `page.html#s=12`
    /// opens at step 13 (`#s=12,40` sets two runs side by side; `#s=fail` opens each run at its first failure).
    static let script = """
    (function(){"use strict";
    var runs=[],focus=null;
    function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e;}
    function setFocus(r){runs.forEach(function(o){o.sec.classList.toggle("focus",o===r);});focus=r;}
    function apply(r,ops,mark){ops.forEach(function(op){var rows=r.tables[op[0]];if(!rows)return;
      if(op[2]===null)rows.delete(op[1]);else rows.set(op[1],op[2]);if(mark)r.changed[op[0]+"\\u0000"+op[1]]=1;});}
    function vt(s){var m=/^([0-9]+)\\+([0-9]+):([0-9]+):([0-9]+)\\.([0-9]+)$/.exec(s||"");return m?(((+m[1]*24+ +m[2])*60+ +m[3])*60+ +m[4])*1000+ +m[5]:Infinity;}
    function render(r){Object.keys(r.tables).forEach(function(p){var body=r.sec.querySelector('table[data-panel="'+p+'"] tbody');if(!body)return;
      var keys=Array.from(r.tables[p].keys()).sort();body.textContent="";
      keys.forEach(function(k){var tr=el("tr",r.changed[p+"\\u0000"+k]?"changed":null),cells=r.tables[p].get(k).slice();
        if(p==="hub"&&cells[5]==="live"&&vt(cells[4])<=r.now)cells[5]="expired (still stored)";
        cells.forEach(function(c){tr.appendChild(el("td",null,c));});body.appendChild(tr);});
      if(!keys.length){var tr=el("tr");var td=el("td",null,"(empty)");td.colSpan=8;tr.appendChild(td);body.appendChild(tr);}});}
    function go(r,k){var n=r.data.steps.length;if(!n){r.sec.querySelector(".what").textContent="This run has no steps.";return;}
      k=Math.max(0,Math.min(n-1,k));
      if(k<r.at){r.tables={};Object.keys(r.panels).forEach(function(p){r.tables[p]=new Map();});apply(r,r.data.init,false);r.at=-1;}
      r.changed={};for(var i=r.at+1;i<=k;i++)apply(r,r.data.steps[i][5],i===k);r.at=k;
      var s=r.data.steps[k];r.now=vt(s[0]);render(r);r.sec.querySelector(".what").textContent=s[0]+"  "+(s[1]?"["+s[1]+" · "+s[2]+"]  ":"")+s[3];
      r.sec.querySelector(".pos").textContent="step "+(k+1)+" of "+n;r.sec.querySelector("input[type=range]").value=k;
      var here=r.sec.querySelector("ul.here");here.textContent="";
      r.data.badges.forEach(function(b){if(b[0]===k)here.appendChild(el("li",b[1],b[1].toUpperCase()+" "+b[2]+(b[3]?" — "+b[3]:"")));});
      if(r.cur)r.cur.classList.remove("cur");r.cur=s[4]>=0?document.getElementById(r.sec.id+"x"+s[4]):null;
      if(r.cur){r.cur.classList.add("cur");var box=r.sec.querySelector(".diagram"),b=box.getBoundingClientRect(),c=r.cur.getBoundingClientRect();
        if(c.top<b.top||c.bottom>b.bottom)box.scrollTop+=c.top-b.top-b.height/3;if(c.left<b.left||c.right>b.right)box.scrollLeft+=c.left-b.left-20;}}
    function nextChain(r,d){var s=r.data.steps,c=s[r.at]?s[r.at][1]:"",i;
      if(d>0){for(i=r.at+1;i<s.length;i++)if(s[i][1]!==c)return i;return r.at;}
      for(i=r.at-1;i>=0&&s[i][1]===c;i--);if(i<0)return 0;var p=s[i][1];while(i>0&&s[i-1][1]===p)i--;return i;}
    function nextFail(r){var f=r.data.badges.filter(function(b){return b[1]!=="pass";}).map(function(b){return b[0];}).sort(function(a,b){return a-b;});
      for(var i=0;i<f.length;i++)if(f[i]>r.at)return f[i];return f.length?f[0]:r.at;}
    function act(r,a){var n=r.data.steps.length;
      if(a==="first")go(r,0);else if(a==="prev")go(r,r.at-1);else if(a==="next")go(r,r.at+1);else if(a==="last")go(r,n-1);
      else if(a==="chain")go(r,nextChain(r,1));else if(a==="chainback")go(r,nextChain(r,-1));else if(a==="fail")go(r,nextFail(r));}
    document.querySelectorAll("section.run").forEach(function(sec){
      var r={sec:sec,data:JSON.parse(sec.querySelector("script.data").textContent),at:-1,tables:{},panels:{},changed:{},cur:null};
      sec.querySelectorAll("table[data-panel]").forEach(function(t){r.panels[t.getAttribute("data-panel")]=1;});
      runs.push(r);
      sec.addEventListener("click",function(ev){setFocus(r);var t=ev.target;var b=t.closest?t.closest("[data-act]"):null;if(b){act(r,b.getAttribute("data-act"));return;}
        var s=t.closest?t.closest("[data-step]"):null;if(s)go(r,parseInt(s.getAttribute("data-step"),10));});
      sec.querySelector("input[type=range]").addEventListener("input",function(ev){setFocus(r);go(r,parseInt(ev.target.value,10));});
      r.at=1e9;go(r,0);});
    if(runs.length)setFocus(runs[0]);
    var lay=document.querySelector("button.layout");
    if(lay)lay.addEventListener("click",function(){var on=document.querySelector("main.runs").classList.toggle("side");lay.setAttribute("aria-pressed",on?"true":"false");});
    var m=/^#s=([0-9,]+|fail)$/.exec(location.hash);
    if(m&&m[1]==="fail")runs.forEach(function(r){r.at=-1;go(r,nextFail(r));});
    else if(m)m[1].split(",").forEach(function(k,i){if(runs[i]&&k!=="")go(runs[i],parseInt(k,10));});
    document.addEventListener("keydown",function(ev){if(!focus||ev.altKey||ev.ctrlKey||ev.metaKey)return;var k=ev.key,map={ArrowRight:"next",ArrowLeft:"prev",Home:"first",End:"last","]":"chain","[":"chainback",f:"fail"};
      if(/^[1-9]$/.test(k)&&runs[+k-1]){setFocus(runs[+k-1]);ev.preventDefault();return;}
      if(map[k]){act(focus,map[k]);ev.preventDefault();}});
    })();
    """
}
