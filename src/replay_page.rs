//! The interactive replay: one battle on its table as a self-contained HTML page. A slider
//! (and play/pause) walks the event stream step by step; the units are drawn to scale with
//! their CV, disorder and rout; each step's move, charge, volley, gun shot or melee is drawn
//! as it happens, and the narrative beside the table highlights the current step.
//!
//! The ground comes from [`crate::map::svg`]; the units and the steps go into the page as
//! JSON, and a small inline script (no framework) replays the steps onto the units.

use serde::Serialize;

use crate::army::{Side, Unit};
use crate::battlefield::geometry::Rect;
use crate::charts::page::esc;
use crate::charts::{hex, side_colour};
use crate::events::{Event, Outcome};
use crate::narrative::{Currency, Recorder, Story};
use crate::setup::BattleSetup;

/// A unit as the page draws it: its corners about its centre, to scale.
#[derive(Serialize)]
struct UnitView {
    name: String,
    colour: String,
    cv: u8,
    x: f64,
    y: f64,
    corners: Vec<[f64; 2]>,
    gun: bool,
}

/// One step: what happened, to whom, and what it leaves on the table.
#[derive(Serialize, Default)]
struct Step {
    /// The turn.
    t: u16,
    /// The narrative line ("" for a step too small to tell).
    s: String,
    /// Kind: `move`, `fire`, `charge`, `melee`, `cv`, `rout`, `gone`, `back` (no longer
    /// broken), `rate`, `end` or `` (nothing drawn).
    k: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    u: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    o: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cv: Option<u8>,
    /// Disordered after a move; a hit for a shot.
    #[serde(skip_serializing_if = "Option::is_none")]
    f: Option<bool>,
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn unit_view(setup: &BattleSetup, u: &Unit) -> UnitView {
    let r = Rect {
        centre: u.pos,
        facing: u.facing,
        frontage: u.frontage,
        depth: u.depth,
    };
    UnitView {
        name: setup.unit_name(u.id).to_string(),
        colour: hex(side_colour(u.side)),
        cv: u.cv,
        x: round(u.pos.x),
        y: round(u.pos.y),
        corners: r
            .corners()
            .iter()
            .map(|c| [round(c.x - u.pos.x), round(c.y - u.pos.y)])
            .collect(),
        gun: u.kind.is_gun(),
    }
}

fn step(turn: u16, text: String, e: Event) -> Step {
    let s = Step {
        t: turn,
        s: text,
        ..Step::default()
    };
    match e {
        Event::Moved {
            unit,
            to,
            disordered,
            ..
        } => Step {
            k: "move",
            u: Some(unit),
            to: Some([round(to.0), round(to.1)]),
            f: Some(disordered),
            ..s
        },
        Event::Fired {
            unit, target, hit, ..
        } => Step {
            k: "fire",
            u: Some(unit),
            o: Some(target),
            f: Some(hit),
            ..s
        },
        Event::ChargeDeclared { unit, target, .. } | Event::SupportCharge { unit, target, .. } => {
            Step {
                k: "charge",
                u: Some(unit),
                o: Some(target),
                ..s
            }
        }
        Event::Melee {
            attacker, defender, ..
        } => Step {
            k: "melee",
            u: Some(attacker),
            o: Some(defender),
            ..s
        },
        Event::CvLost { unit, cv, .. }
        | Event::CvGained { unit, cv, .. }
        | Event::Rally { unit, cv, .. } => Step {
            k: "cv",
            u: Some(unit),
            cv: Some(cv),
            ..s
        },
        Event::RatingRolled { unit, cv } => Step {
            k: "rate",
            u: Some(unit),
            cv: Some(cv),
            ..s
        },
        Event::Rout { unit, .. } | Event::FootBroke { unit } => Step {
            k: "rout",
            u: Some(unit),
            ..s
        },
        Event::Recovered { unit }
        | Event::Remanned {
            unit,
            success: true,
            ..
        } => Step {
            k: "back",
            u: Some(unit),
            ..s
        },
        Event::Disintegrated { unit }
        | Event::LeftTable { unit }
        | Event::PursuitLost { unit, .. } => Step {
            k: "gone",
            u: Some(unit),
            ..s
        },
        Event::BattleEnded { .. } => Step { k: "end", ..s },
        _ => s,
    }
}

/// The ground alone: the map without units.
fn ground(setup: &BattleSetup) -> String {
    crate::map::svg(setup, &[], &[], &Recorder::default())
}

const CSS: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;padding:.5em;color:#111}
h1{font-size:1.2em;margin:.2em 0}
#wrap{display:flex;flex-wrap:wrap;gap:.8em}
#table{flex:3 1 30em;min-width:0}
#table svg{width:100%;height:auto;display:block;border:1px solid #999}
#story{flex:1 1 18em;max-height:80vh;overflow-y:auto;font-size:.85em;border:1px solid #ccc;padding:0 .4em}
#story ol{padding-left:2.6em;margin:.3em 0}
#story li.on{background:#ffe9a8;font-weight:bold}
#story li.turn{list-style:none;margin-left:-2em;font-weight:bold;margin-top:.4em}
#controls{display:flex;flex-wrap:wrap;align-items:center;gap:.4em;margin:.4em 0}
#controls input[type=range]{flex:1 1 12em}
button{font:inherit;padding:.2em .7em}
#now{font-variant-numeric:tabular-nums;min-width:14em}
.key span{display:inline-block;margin-right:1em;font-size:.85em}
.routed{stroke:#D55E00;stroke-width:3}
.disordered{stroke-dasharray:3 2}
@media print{#controls{display:none}#story{max-height:none}}
";

/// Replays the steps onto the units: `go(i)` shows the table after step `i`.
const SCRIPT: &str = r#"
var D=JSON.parse(document.getElementById('data').textContent);
var NS='http://www.w3.org/2000/svg',PX=D.px,H=D.depth;
var svg=document.querySelector('#table svg'),layer=document.createElementNS(NS,'g'),fx=document.createElementNS(NS,'g');
svg.appendChild(layer);svg.appendChild(fx);
function X(x){return x*PX;}function Y(y){return (H-y)*PX;}
var shapes=D.units.map(function(u,i){
 var g=document.createElementNS(NS,'g'),p=document.createElementNS(NS,'polygon'),t=document.createElementNS(NS,'text'),ti=document.createElementNS(NS,'title');
 p.setAttribute('fill',u.colour);p.setAttribute('stroke','#000');p.setAttribute('class','unit');p.dataset.unit=i;
 t.setAttribute('font-size','10');t.setAttribute('text-anchor','middle');t.setAttribute('dy','.35em');
 ti.textContent=u.name;g.appendChild(p);g.appendChild(t);g.appendChild(ti);layer.appendChild(g);
 return {g:g,p:p,t:t};
});
function fresh(){return D.units.map(function(u){return {x:u.x,y:u.y,cv:u.cv,cv0:u.cv,dis:false,rout:false,gone:false};});}
function apply(S,s){
 var u=s.u!==undefined?S[s.u]:null;
 if(s.k==='move'){u.x=s.to[0];u.y=s.to[1];u.dis=s.f;}
 else if(s.k==='cv'){u.cv=s.cv;if(s.cv===0)u.gone=true;}
 else if(s.k==='rate'){u.cv=s.cv;u.cv0=s.cv;}
 else if(s.k==='rout'){u.rout=true;}
 else if(s.k==='back'){u.rout=false;}
 else if(s.k==='gone'){u.gone=true;}
}
function line(a,b,colour,width,dash){var l=document.createElementNS(NS,'line');
 l.setAttribute('x1',X(a[0]));l.setAttribute('y1',Y(a[1]));l.setAttribute('x2',X(b[0]));l.setAttribute('y2',Y(b[1]));
 l.setAttribute('stroke',colour);l.setAttribute('stroke-width',width);if(dash)l.setAttribute('stroke-dasharray',dash);
 l.setAttribute('class','action');fx.appendChild(l);}
function draw(S,s,before){
 S.forEach(function(u,i){var sh=shapes[i],c=D.units[i].corners;
  sh.g.style.display=u.gone?'none':'';
  sh.p.setAttribute('points',c.map(function(k){return X(u.x+k[0])+','+Y(u.y+k[1]);}).join(' '));
  sh.p.setAttribute('fill-opacity',(0.25+0.75*u.cv/Math.max(1,u.cv0)).toFixed(2));
  sh.p.setAttribute('class','unit'+(u.rout?' routed':'')+(u.dis?' disordered':''));
  sh.t.setAttribute('x',X(u.x));sh.t.setAttribute('y',Y(u.y));sh.t.textContent=u.cv;});
 while(fx.firstChild)fx.removeChild(fx.firstChild);
 if(!s||s.u===undefined)return;
 var a=S[s.u],o=s.o!==undefined?S[s.o]:null;
 if(s.k==='move'){line([before.x,before.y],[a.x,a.y],'#000',2,'5 3');}
 else if(s.k==='fire'){line([a.x,a.y],[o.x,o.y],s.f?'#D55E00':'#777',D.units[s.u].gun?3:1.5,'2 3');}
 else if(s.k==='charge'){line([a.x,a.y],[o.x,o.y],'#CC79A7',4,null);}
 else if(s.k==='melee'){line([a.x,a.y],[o.x,o.y],'#000',6,null);}
 if(s.u!==undefined){shapes[s.u].p.setAttribute('stroke-width','3');}
}
var slider=document.getElementById('step'),now=document.getElementById('now'),items=document.querySelectorAll('#story li[data-i]');
function go(i){
 var S=fresh(),before=null;
 for(var k=0;k<=i&&k<D.steps.length;k++){var s=D.steps[k];if(k===i&&s.u!==undefined)before={x:S[s.u].x,y:S[s.u].y};apply(S,s);}
 shapes.forEach(function(sh){sh.p.setAttribute('stroke-width','1');});
 draw(S,D.steps[i],before);
 slider.value=i;var s=D.steps[i];
 now.textContent='Turn '+s.t+', step '+(i+1)+' of '+D.steps.length;
 items.forEach(function(li){var on=+li.dataset.i===i;li.classList.toggle('on',on);if(on)li.scrollIntoView({block:'nearest'});});
}
var timer=null,play=document.getElementById('play');
function stop(){clearInterval(timer);timer=null;play.textContent='Play';}
play.addEventListener('click',function(){if(timer){stop();return;}play.textContent='Pause';
 timer=setInterval(function(){var i=+slider.value+1;if(i>=D.steps.length){stop();return;}go(i);},150);});
slider.addEventListener('input',function(){go(+slider.value);});
function turnFrom(i,dir){var t=D.steps[i].t+dir;for(var k=0;k<D.steps.length;k++){if(D.steps[k].t===t)return k;}return dir>0?D.steps.length-1:0;}
document.getElementById('prev').addEventListener('click',function(){go(Math.max(0,+slider.value-1));});
document.getElementById('next').addEventListener('click',function(){go(Math.min(D.steps.length-1,+slider.value+1));});
document.getElementById('pturn').addEventListener('click',function(){go(turnFrom(+slider.value,-1));});
document.getElementById('nturn').addEventListener('click',function(){go(turnFrom(+slider.value,1));});
items.forEach(function(li){li.addEventListener('click',function(){go(+li.dataset.i);});});
go(0);
"#;

/// The page of battle `index` of a run with master seed `seed`: `start` the units as
/// deployed (before any rating was rolled), `rec` the battle's events, told in `currency`.
pub fn html(
    setup: &BattleSetup,
    currency: Currency,
    start: &[Unit],
    rec: &Recorder,
    seed: u64,
    index: u64,
) -> String {
    let units: Vec<UnitView> = start.iter().map(|u| unit_view(setup, u)).collect();
    let mut story = Story::new(setup, currency);
    let steps: Vec<Step> = rec
        .events
        .iter()
        .map(|&(turn, e)| {
            let line = story.line(e).unwrap_or_default();
            step(turn, line.trim().to_string(), e)
        })
        .collect();
    let data = serde_json::json!({
        "px": crate::map::PX,
        "depth": setup.ground.depth,
        "units": units,
        "steps": steps,
    });
    // `</` cannot close the script element early.
    let json = data.to_string().replace("</", "<\\/");
    let mut story = String::from("<ol>");
    let mut turn = u16::MAX;
    for (i, s) in steps.iter().enumerate() {
        if s.t != turn {
            turn = s.t;
            let head = if turn == 0 {
                "Before battle".to_string()
            } else {
                format!("Turn {turn}")
            };
            story.push_str(&format!("<li class=\"turn\">{head}</li>"));
        }
        if !s.s.is_empty() {
            story.push_str(&format!(
                "<li data-i=\"{i}\" value=\"{}\">{}</li>",
                i + 1,
                esc(&s.s)
            ));
        }
    }
    story.push_str("</ol>");
    let result = rec.events.iter().rev().find_map(|(_, e)| match e {
        Event::BattleEnded {
            outcome: Outcome::Won(side),
            turn,
        } => Some(format!("{} victory in turn {turn}", side_word(*side))),
        Event::BattleEnded {
            outcome: Outcome::Draw,
            turn,
        } => Some(format!("a draw in turn {turn}")),
        _ => None,
    });
    let title = format!("{}: battle {index} of seed {seed}", setup.name);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{t}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n<h1>{t}</h1>\n<p class=\"key\">{result}. Units to scale: <span style=\"color:{p}\">&#9632; Parliament</span><span style=\"color:{r}\">&#9632; Royalists</span> the number is {what} (paler as it falls); dashed outline: disordered; red outline: routed or broken. Dashed line: a move; dotted: a shot (red a hit); purple: a charge; black: a melee.</p>\n<div id=\"controls\"><button id=\"play\" type=\"button\">Play</button><button id=\"pturn\" type=\"button\">&#9664;&#9664; turn</button><button id=\"prev\" type=\"button\">&#9664;</button><input id=\"step\" type=\"range\" min=\"0\" max=\"{max}\" value=\"0\" aria-label=\"step\"><button id=\"next\" type=\"button\">&#9654;</button><button id=\"nturn\" type=\"button\">turn &#9654;&#9654;</button><span id=\"now\"></span></div>\n<div id=\"wrap\"><div id=\"table\">{map}</div><div id=\"story\">{story}</div></div>\n<script type=\"application/json\" id=\"data\">{json}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        t = esc(&title),
        result = esc(&result.unwrap_or_else(|| "Unfinished".into())),
        p = hex(side_colour(Side::Parliament)),
        r = hex(side_colour(Side::Royalist)),
        max = steps.len().saturating_sub(1),
        what = currency.strength(),
        map = ground(setup),
    )
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::Parliament => "Parliamentarian",
        Side::Royalist => "Royalist",
    }
}
