-- Galactic hippo (R8.7): if fewer than three hippos are on the board, put one on
-- an opposing checker without a hippo or a snookle. The hippo freezes it (R4.7).
function play(ctx)
  if ctx:count{ hippo = true } >= 3 then
    ctx:log("Galactic hippo: three hippos are already on the board; nothing happens")
    return
  end
  -- The kernel knows who may take a hippo: no hippo, no snookle (R8.8), one in the supply.
  local targets = { owner = ctx:opponent(), can_take = "hippo" }
  if ctx:count(targets) == 0 then
    ctx:log("Galactic hippo: no opposing checker can take a hippo; nothing happens")
    return
  end
  ctx:put_token(ctx:ask_checker_where("Galactic hippo: which opposing checker does it sit on?", targets), "hippo")
end
