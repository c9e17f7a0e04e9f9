//! The analyses of the function version a phase was given, shared with the
//! next phase that is given the same version.
//!
//! Most phases change nothing in most functions (on the dealii module of
//! the corpus, 30 of the 55 phases return their input `Arc` for every
//! function), and each phase starts from the analyses of its input: the
//! loop analyses ([`LoopInfo`]), the scalar facts ([`Facts`]) or only their
//! register access lists ([`Accesses`]), liveness, or register pressure
//! ([`Mrpa`]); the loop analyses and the facts share one CFG and dominator
//! tree, the facts hold the access lists, liveness is made on that CFG, and
//! MRPA from that liveness. Here the
//! last version seen on this thread keeps them: a phase given the same
//! `Arc` (the same version: the cache holds a clone of it, so the address
//! cannot be reused) reads them instead of computing them again. A phase
//! that changes the function computes the analyses of its own copy as
//! before.
//!
//! A new version keeps what the last one whose CFG was made knows of the
//! block graph: when its own block graph is the same (the same blocks,
//! layout and successors, checked by [`cfg_if_same_graph`] with one look
//! at each block's last instruction), its CFG is that one's with the
//! instructions' positions made again, and the dominator tree and loops
//! are taken as they are. Most phases edit instructions and leave the
//! branches alone (constant folding, copy propagation, commoning, the
//! scheduler), so most versions need no new dominator tree or loop forest.
//!
//! The cache is per thread and holds one version: the database runs the
//! phases of one function one after the other on one thread, so the next
//! phase finds the version its predecessor saw. It is a cache of pure
//! functions of the version: it never changes what a phase computes.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use ptx_analysis::mrpa::{Mrpa, MrpaConfig};
use ptx_analysis::{cfg, cfg_if_same_graph, dominators, liveness, Cfg, DomTree, Liveness};
use ptx_ir::ir::Function;

use super::known::{Accesses, Facts};
use super::loop_common::LoopInfo;

struct Entry {
    func: Arc<Function>,
    /// The CFG and dominator tree, which the loop analyses and the facts
    /// share.
    cfg: Option<Rc<Cfg>>,
    dom: Option<Rc<DomTree>>,
    liveness: Option<Rc<Liveness>>,
    loop_info: Option<Rc<LoopInfo>>,
    facts: Option<Rc<Facts>>,
    /// Which instructions write and read each register (the facts' own
    /// when they are made).
    accesses: Option<Rc<Accesses>>,
    /// Register pressure (MRPA), with the configuration it was made with.
    mrpa: Option<(MrpaConfig, Mrpa)>,
    /// The block-graph analyses of an earlier version (the last one whose
    /// CFG was made), for this version's when its block graph is the same
    /// (see [`Entry::cfg`]).
    earlier: Option<Earlier>,
}

/// What an earlier version's CFG, dominator tree and loops tell about a
/// later version with the same block graph: everything but where each
/// instruction sits.
struct Earlier {
    cfg: Rc<Cfg>,
    dom: Option<Rc<DomTree>>,
    loop_info: Option<Rc<LoopInfo>>,
}

impl Entry {
    /// What a later version may take from this one.
    fn into_earlier(self) -> Option<Earlier> {
        match self.cfg {
            Some(cfg) => Some(Earlier {
                cfg,
                dom: self.dom,
                loop_info: self.loop_info,
            }),
            None => self.earlier,
        }
    }
}

thread_local! {
    static LAST: RefCell<Option<Entry>> = const { RefCell::new(None) };
}

fn with_entry<T>(input: &Arc<Function>, get: impl FnOnce(&mut Entry) -> T) -> T {
    LAST.with(|cell| {
        let mut cell = cell.borrow_mut();
        if !matches!(&*cell, Some(e) if Arc::ptr_eq(&e.func, input)) {
            let earlier = cell.take().and_then(Entry::into_earlier);
            *cell = Some(Entry {
                func: input.clone(),
                cfg: None,
                dom: None,
                liveness: None,
                loop_info: None,
                facts: None,
                accesses: None,
                mrpa: None,
                earlier,
            });
        }
        let entry = cell.as_mut().expect("just set");
        get(entry)
    })
}

impl Entry {
    /// The CFG, taken from an earlier version with the same block graph
    /// when there is one ([`cfg_if_same_graph`]: then its dominator tree
    /// and loops are this version's too, with this version's CFG).
    fn cfg(&mut self) -> Rc<Cfg> {
        if let Some(g) = &self.cfg {
            return g.clone();
        }
        let func = &self.func;
        let reused = self
            .earlier
            .take()
            .and_then(|e| Some((cfg_if_same_graph(func, &e.cfg)?, e)));
        let g = match reused {
            Some((g, earlier)) => {
                let g = Rc::new(g);
                self.dom = earlier.dom;
                self.loop_info = earlier.loop_info.map(|li| {
                    Rc::new(LoopInfo {
                        cfg: g.clone(),
                        dom: li.dom.clone(),
                        forest: li.forest.clone(),
                    })
                });
                g
            }
            None => Rc::new(cfg(func)),
        };
        self.cfg = Some(g.clone());
        g
    }

    fn graph(&mut self) -> (Rc<Cfg>, Rc<DomTree>) {
        let g = self.cfg();
        let dom = self
            .dom
            .get_or_insert_with(|| Rc::new(dominators(&g)))
            .clone();
        (g, dom)
    }

    fn accesses(&mut self) -> Rc<Accesses> {
        self.accesses
            .get_or_insert_with(|| Rc::new(Accesses::new(&self.func)))
            .clone()
    }

    fn mrpa(&mut self, config: MrpaConfig) -> &Mrpa {
        if !matches!(&self.mrpa, Some((c, _)) if *c == config) {
            let (g, lv) = (self.cfg(), self.liveness());
            let m = Mrpa::with_analyses(&self.func, config, g.without_positions(), &lv);
            self.mrpa = Some((config, m));
        }
        &self.mrpa.as_ref().expect("just made").1
    }

    fn liveness(&mut self) -> Rc<Liveness> {
        if self.liveness.is_none() {
            let g = self.cfg();
            self.liveness = Some(Rc::new(liveness(&self.func, &g)));
        }
        self.liveness.clone().expect("just made")
    }
}

/// The dominator tree of `input` (the one its scalar facts are made on).
pub(crate) fn dom_of(input: &Arc<Function>) -> Rc<DomTree> {
    with_entry(input, |e| e.graph().1)
}

/// The CFG of `input`.
pub(crate) fn cfg_of(input: &Arc<Function>) -> Rc<Cfg> {
    with_entry(input, |e| e.cfg())
}

/// Register liveness of `input`.
pub(crate) fn liveness_of(input: &Arc<Function>) -> Rc<Liveness> {
    with_entry(input, |e| e.liveness())
}

/// The loop analyses of `input`.
pub(crate) fn loop_info(input: &Arc<Function>) -> Rc<LoopInfo> {
    with_entry(input, |e| {
        // The graph first: taken from an earlier version, it brings the
        // loops along.
        let (g, dom) = e.graph();
        if e.loop_info.is_none() {
            e.loop_info = Some(Rc::new(LoopInfo::with_graph(g, dom)));
        }
        e.loop_info.clone().unwrap()
    })
}

/// The scalar facts of `input`.
pub(crate) fn facts(input: &Arc<Function>) -> Rc<Facts> {
    with_entry(input, |e| {
        if e.facts.is_none() {
            let (g, dom) = e.graph();
            let access = e.accesses();
            e.facts = Some(Rc::new(Facts::with_parts(access, g, dom)));
        }
        e.facts.clone().unwrap()
    })
}

/// Which placed instructions write and read each register of `input`.
pub(crate) fn accesses(input: &Arc<Function>) -> Rc<Accesses> {
    with_entry(input, |e| e.accesses())
}

/// Register pressure (MRPA) of `input`, a copy for the caller to update
/// as it edits its own copy of the function (copying the tracker costs a
/// fraction of building it: the block remat, machine-cse, pipeliner and
/// scheduler phases often see the same version).
pub(crate) fn mrpa(input: &Arc<Function>, config: MrpaConfig) -> Mrpa {
    with_entry(input, |e| e.mrpa(config).clone())
}

/// The function-wide maximum of [`mrpa`] (no copy of the tracker: for a
/// phase that may stop at it).
pub(crate) fn mrpa_max(
    input: &Arc<Function>,
    config: MrpaConfig,
) -> ptx_analysis::reg_pressure::MaxPressure {
    with_entry(input, |e| e.mrpa(config).max())
}
