-- Turncoat: an opponent's checker becomes the user's (ctx:set_owner).
function play(ctx)
  local sq = ctx:ask_checker_where("Which checker changes sides?", { owner = ctx:opponent() })
  local before = ctx:checker(sq).id
  ctx:set_owner(sq, ctx:player())
  assert(ctx:checker(sq).id == before, "it keeps its number")
end
