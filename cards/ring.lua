-- Ring (R8.17): put a ring on one of your checkers without one.
function play(ctx)
  -- The kernel knows who may take a ring: no ring yet, and one left in the supply.
  local targets = { owner = ctx:player(), can_take = "ring" }
  if ctx:count(targets) == 0 then
    ctx:log("Ring: no checker of {user}'s can take a ring; nothing happens")
    return
  end
  ctx:put_token(ctx:ask_checker_where("Ring: which of your checkers gets the ring?", targets), "ring")
end
