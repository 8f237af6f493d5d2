-- Snookle (R8.8): put a snookle on one of your checkers without one. The kernel's
-- put_token sends a hippo on that checker back to the supply.
function play(ctx)
  -- The kernel knows who may take a snookle: none yet, and one left in the supply.
  local targets = { owner = ctx:player(), can_take = "snookle" }
  if ctx:count(targets) == 0 then
    ctx:log("Snookle: no checker of {user}'s can take a snookle; nothing happens")
    return
  end
  ctx:put_token(ctx:ask_checker_where("Snookle: which of your checkers gets the snookle?", targets), "snookle")
end
